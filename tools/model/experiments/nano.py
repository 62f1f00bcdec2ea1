"""The nano OCR model: sizes, resolution mode, prompt, and the batched pieces training, distillation
and export share (pages -> pixels, prompt + visual embeddings, cached batched greedy decoding).

The view is the whole 512-pixel page with 8-pixel SAM patches, so the DeepEncoder's 4x compression
leaves 16x16 visual tokens of 32x32 pixels each: most of a line of 34-42-pixel body text high and
one or two characters across. (An 8x8 grid, four characters to a token, was tried first: after
2,200 steps its decoder still guessed words from their shapes; see README.) SAM's blocks are all
windowed, since one global block over 64x64 patches would cost more than the rest of the model.
SAM's neck and compressor are linear, so telling characters apart falls mostly to CLIP, which
runs on the 16x16 grid where layers are cheap: it has six. (With two, after 890 steps the glyph head
put a token's characters first among its guesses 62% of the time; with six, 88% after 460.)
Everything is sized for a CPU: about five million parameters.
"""
from __future__ import annotations

import json
import random
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from folio_model.byte_bpe import encode
from folio_model.config import ClipConfig, DecoderConfig, ModelConfig, SamConfig
from folio_model.model import DeepseekOCRForCausalLM
from folio_model.package import PLAIN_PROMPT, DecodingRule
from folio_model.preprocess import ResolutionMode, prepare_views
from folio_model.vision import visual_token_count
from .synth.render import Page, degrade, make_page

NANO_MODE = ResolutionMode("nano", base_size=512, image_size=512, crop=False)
SAM_PATCH = 8
# a repeat of 30 tokens never happens on these pages; the rule stays as a guard against loops
NANO_DECODING = DecodingRule(ngram_size=30, window=90)
MAX_NEW_TOKENS = 320
# visual tokens a side: the DeepEncoder compresses the view's patches 4x along each side
GRID_SIDE = NANO_MODE.base_size // SAM_PATCH // 4


def nano_config(vocab_size: int) -> ModelConfig:
    return ModelConfig(
        sam=SamConfig(img_size=NANO_MODE.base_size, patch_size=SAM_PATCH, embed_dim=48, depth=2, num_heads=2,
                      mlp_ratio=2.0, out_chans=48, window_size=8, global_attn_indexes=(), net_2_chans=96,
                      net_3_chans=128),
        clip=ClipConfig(hidden_size=128, num_layers=6, num_attention_heads=4, ffn_hidden_size=512,
                        image_size=224, patch_size=14),
        decoder=DecoderConfig(vocab_size=vocab_size, hidden_size=192, num_hidden_layers=4, num_attention_heads=4,
                              num_key_value_heads=4, intermediate_size=512, moe_intermediate_size=128,
                              n_routed_experts=4, n_shared_experts=1, num_experts_per_tok=2,
                              rope_theta=10000.0, max_position_embeddings=1024),
        num_mtp_heads=1,
    )


@dataclass(frozen=True)
class Prompt:
    """The prompt is the same for every page (one global view, no tiles): BOS, the image run, text."""
    ids: list[int]
    image_start: int
    image_run: int


def nano_prompt(tokenizer: dict) -> Prompt:
    vocab = tokenizer["model"]["vocab"]
    before, after = PLAIN_PROMPT.split("<image>")
    run = visual_token_count(GRID_SIDE, GRID_SIDE, 1, 1)
    head = [0, *encode(tokenizer, before)]
    return Prompt(head + [vocab["<image>"]] * run + encode(tokenizer, after), len(head), run)


def cell_key(prompt: Prompt, cell: int) -> int:
    """The sequence position of grid cell `cell` (row * GRID_SIDE + column): each grid row is
    followed by a row end."""
    return prompt.image_start + (cell // GRID_SIDE) * (GRID_SIDE + 1) + cell % GRID_SIDE


def page_pixels(page: Page) -> np.ndarray:
    return prepare_views(page.image, NANO_MODE).global_view


def load_tokenizer(path: Path) -> dict:
    return json.loads(path.read_text())


def visual_sequence(model: DeepseekOCRForCausalLM, features: torch.Tensor) -> torch.Tensor:
    """`[b, side * side, H]` (the encoded global views) -> `[b, run, H]`: the grid with row ends,
    then the separator."""
    inner = model.model
    b, tokens, hidden = features.shape
    side = int(round(tokens ** 0.5))
    grid = features.reshape(b, side, side, hidden)
    ends = inner.image_newline.reshape(1, 1, 1, hidden).expand(b, side, 1, hidden)
    rows = torch.cat([grid, ends], dim=2).reshape(b, side * (side + 1), hidden)
    return torch.cat([rows, inner.view_seperator.reshape(1, 1, hidden).expand(b, 1, hidden)], dim=1)


def prompt_embeds(model: DeepseekOCRForCausalLM, prompt: Prompt, features: torch.Tensor) -> torch.Tensor:
    """The prompt's embeddings around `features`, the encoded views (`model.model.encode_views`)."""
    b = features.shape[0]
    ids = torch.tensor(prompt.ids)
    text = model.model.embed_tokens(ids)[None].expand(b, -1, -1)
    visual = visual_sequence(model, features)
    return torch.cat([text[:, :prompt.image_start], visual, text[:, prompt.image_start + prompt.image_run:]], dim=1)


def batch_pages(split: str, indices: list[int], augment: bool) -> tuple[torch.Tensor, list[Page]]:
    pages = [make_page(split, i) for i in indices]
    if augment:
        pages = [degrade(p, random.Random(zlib.crc32(f"{split}:{i}".encode()))) for p, i in zip(pages, indices)]
    return torch.from_numpy(np.stack([page_pixels(p) for p in pages])), pages


@torch.no_grad()
def greedy_batch(model: DeepseekOCRForCausalLM, prompt: Prompt, pixels: torch.Tensor, eos: int,
                 max_new: int = MAX_NEW_TOKENS) -> list[list[int]]:
    """Greedy tokens per page (EOS included when reached), with a key/value cache; all prompts have the
    same length, so the batch decodes in lockstep. The no-repeat rule is left out: it never fires here."""
    embeds = prompt_embeds(model, prompt, model.model.encode_views(pixels))
    b, length, _ = embeds.shape
    hidden, past = model.model(embeds, torch.arange(length)[None].expand(b, -1))
    token = model.lm_head(hidden[:, -1]).argmax(-1)
    out = [[int(t)] for t in token]
    done = token == eos
    for step in range(1, max_new):
        if bool(done.all()):
            break
        position = torch.full((b, 1), length + step - 1)
        hidden, rows = model.model(model.model.embed_tokens(token[:, None]), position, past)
        past = [(torch.cat([p[0], r[0]], 1), torch.cat([p[1], r[1]], 1)) for p, r in zip(past, rows)]
        token = model.lm_head(hidden[:, -1]).argmax(-1)
        for i, t in enumerate(token):
            if not done[i]:
                out[i].append(int(t))
        done = done | (token == eos)
    return out
