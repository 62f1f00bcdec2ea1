"""End-to-end reference inference with the PyTorch model: page image -> visual sequence -> prompt
ids -> greedy tokens. The runtime's parity fixtures are produced by these functions."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from PIL import Image

from .model import DeepseekOCRForCausalLM
from .preprocess import PreparedViews, ResolutionMode, prepare_views
from .vision import layout_visual_tokens, visual_token_count


@dataclass(frozen=True)
class VisualInput:
    views: PreparedViews
    global_features: torch.Tensor  # [g*g, H]
    tile_features: torch.Tensor | None  # [tiles, t*t, H]
    sequence: torch.Tensor  # [tokens, H]


def encode_page(model: DeepseekOCRForCausalLM, image: Image.Image, mode: ResolutionMode) -> VisualInput:
    views = prepare_views(image, mode)
    inner = model.model
    with torch.no_grad():
        global_features = inner.encode_views(torch.from_numpy(views.global_view)[None])[0]
        tiles = None if views.tiles is None else inner.encode_views(torch.from_numpy(views.tiles))
        sequence = layout_visual_tokens(global_features, tiles, views.grid[0], views.grid[1],
                                        inner.image_newline, inner.view_seperator)
    return VisualInput(views, global_features, tiles, sequence)


def image_token_run(model: DeepseekOCRForCausalLM, views: PreparedViews, mode: ResolutionMode) -> int:
    patch = model.config.sam.patch_size
    return visual_token_count(mode.base_size // patch // 4, mode.image_size // patch // 4, *views.grid)


def prompt_ids(bos: int, before: list[int], image_id: int, run: int, after: list[int]) -> list[int]:
    """BOS, text before `<image>`, the run of image ids the visual sequence fills, text after."""
    return [bos, *before, *([image_id] * run), *after]


def embed_prompt(model: DeepseekOCRForCausalLM, ids: list[int], image_id: int,
                 visual: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        tensor = torch.tensor([ids])
        embeds = model.model.embed_tokens(tensor)
        embeds[0, tensor[0] == image_id] = visual
    return embeds


def banned_tokens(generated: list[int], size: int, window: int, exempt: set[int]) -> set[int]:
    """No-repeat n-gram rule over the generated tokens: a token that would complete an n-gram already
    seen within the last `window` tokens is banned, except the exempt ones."""
    if len(generated) < size:
        return set()
    prefix = tuple(generated[len(generated) - size + 1:])
    start = max(0, len(generated) - window)
    banned = {generated[i + size - 1] for i in range(start, len(generated) - size + 1)
              if tuple(generated[i:i + size - 1]) == prefix}
    return banned - exempt


def forward_logits(model: DeepseekOCRForCausalLM, embeds: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Full-sequence forward without a cache: (last-position logits [V], post-norm hidden [1, s, H])."""
    with torch.no_grad():
        positions = torch.arange(embeds.shape[1])[None]
        hidden, _ = model.model(embeds, positions)
        return model.lm_head(hidden[0, -1]).float(), hidden


@dataclass(frozen=True)
class GreedyResult:
    tokens: list[int]
    smallest_margin: float  # top-1 minus top-2 logit, over all steps: a runtime tie-break risk if tiny


def greedy(model: DeepseekOCRForCausalLM, embeds: torch.Tensor, eos: int, max_new: int, ngram: int,
           window: int, exempt: set[int]) -> GreedyResult:
    tokens: list[int] = []
    margin = float("inf")
    for _ in range(max_new):
        logits, _ = forward_logits(model, embeds)
        logits = logits.clone()
        for token in banned_tokens(tokens, ngram, window, exempt):
            logits[token] = float("-inf")
        top = torch.topk(logits, 2).values
        margin = min(margin, float(top[0] - top[1]))
        token = int(torch.argmax(logits))
        tokens.append(token)
        if token == eos:
            break
        with torch.no_grad():
            embeds = torch.cat([embeds, model.model.embed_tokens(torch.tensor([[token]]))], dim=1)
    return GreedyResult(tokens, margin)


def as_array(tensor: torch.Tensor) -> np.ndarray:
    return tensor.detach().float().numpy()
