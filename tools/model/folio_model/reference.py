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


def through_half(tensor: torch.Tensor) -> torch.Tensor:
    """Rounded to fp16 and back: what an fp16 package's graph boundary does to a float tensor."""
    return tensor.half().float()


def encode_page(model: DeepseekOCRForCausalLM, image: Image.Image, mode: ResolutionMode,
                half_io: bool = False) -> VisualInput:
    """`half_io` rounds the pixels and the vision graph's outputs to fp16, as an fp16 package does."""
    views = prepare_views(image, mode)
    inner = model.model
    boundary = through_half if half_io else (lambda t: t)
    with torch.no_grad():
        global_features = boundary(inner.encode_views(boundary(torch.from_numpy(views.global_view)[None]))[0])
        tiles = None if views.tiles is None else boundary(inner.encode_views(boundary(torch.from_numpy(views.tiles))))
        sequence = layout_visual_tokens(global_features, tiles, views.grid[0], views.grid[1],
                                        boundary(inner.image_newline), boundary(inner.view_seperator))
    return VisualInput(views, global_features, tiles, sequence)


def image_token_run(model: DeepseekOCRForCausalLM, views: PreparedViews, mode: ResolutionMode) -> int:
    patch = model.config.sam.patch_size
    return visual_token_count(mode.base_size // patch // 4, mode.image_size // patch // 4, *views.grid)


def prompt_ids(bos: int, before: list[int], image_id: int, run: int, after: list[int]) -> list[int]:
    """BOS, text before `<image>`, the run of image ids the visual sequence fills, text after."""
    return [bos, *before, *([image_id] * run), *after]


def embed_prompt(model: DeepseekOCRForCausalLM, ids: list[int], image_id: int,
                 visual: torch.Tensor, half_io: bool = False) -> torch.Tensor:
    with torch.no_grad():
        tensor = torch.tensor([ids])
        embeds = model.model.embed_tokens(tensor)
        embeds = through_half(embeds) if half_io else embeds
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
    margins: tuple[float, ...] = ()  # top-1 minus top-2 logit at each step, after the n-gram ban


def greedy(model: DeepseekOCRForCausalLM, embeds: torch.Tensor, eos: int, max_new: int, ngram: int,
           window: int, exempt: set[int], half_io: bool = False) -> GreedyResult:
    """`half_io` rounds each new token's embedding to fp16, as an fp16 package's embedding graph does
    (the prompt's embeddings come rounded from `embed_prompt`). The cache is not modelled: every step is a
    full forward, so an fp16 package's fp16 KV rows are one source of difference from this reference."""
    tokens: list[int] = []
    margins: list[float] = []
    for _ in range(max_new):
        logits, _ = forward_logits(model, embeds)
        logits = logits.clone()
        for token in banned_tokens(tokens, ngram, window, exempt):
            logits[token] = float("-inf")
        top = torch.topk(logits, 2).values
        margins.append(float(top[0] - top[1]))
        token = int(torch.argmax(logits))
        tokens.append(token)
        if token == eos:
            break
        with torch.no_grad():
            new = model.model.embed_tokens(torch.tensor([[token]]))
            embeds = torch.cat([embeds, through_half(new) if half_io else new], dim=1)
    return GreedyResult(tokens, min(margins, default=float("inf")), tuple(margins))


def as_array(tensor: torch.Tensor) -> np.ndarray:
    return tensor.detach().float().numpy()
