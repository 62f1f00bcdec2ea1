"""DeepEncoder fusion and the visual-token layout the decoder sees.

One view (a tile or the global image) becomes `grid*grid` features: CLIP's output without CLS
concatenated with SAM's flattened compressed map, through the linear projector. The layout puts the
local tiles first as one big grid (each row followed by `image_newline`), then the global grid
(each row followed by `image_newline`), then one `view_seperator`.
"""
from __future__ import annotations

import torch
from torch import nn

from .clip import VitModel
from .sam import ImageEncoderViT


class MlpProjector(nn.Module):
    """The `linear` projector type; the checkpoint names its one layer `projector.layers`."""

    def __init__(self, input_dim: int, n_embed: int) -> None:
        super().__init__()
        self.layers = nn.Linear(input_dim, n_embed)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)


def encode_views(sam: ImageEncoderViT, clip: VitModel, projector: MlpProjector,
                 pixels: torch.Tensor) -> torch.Tensor:
    """`[n, 3, S, S]` normalised views -> `[n, (S/64)^2, hidden]` projected features."""
    sam_maps = sam(pixels)
    clip_tokens = clip(sam_maps)
    fused = torch.cat([clip_tokens[:, 1:], sam_maps.flatten(2).transpose(1, 2)], dim=-1)
    return projector(fused)


def with_row_ends(grid: torch.Tensor, newline: torch.Tensor) -> torch.Tensor:
    """`[rows, cols, H]` -> `[rows * (cols + 1), H]`, a newline after each row."""
    rows = grid.shape[0]
    ends = newline.reshape(1, 1, -1).expand(rows, 1, grid.shape[-1])
    return torch.cat([grid, ends], dim=1).reshape(-1, grid.shape[-1])


def layout_visual_tokens(global_view: torch.Tensor, tiles: torch.Tensor | None, tiles_wide: int,
                         tiles_high: int, newline: torch.Tensor, separator: torch.Tensor) -> torch.Tensor:
    """Sequence of visual embeddings: `[tokens, H]` from one global view `[g*g, H]` and row-major
    tiles `[w*h, t*t, H]` (or None)."""
    hidden = global_view.shape[-1]
    side = int(round(global_view.shape[0] ** 0.5))
    parts = []
    if tiles is not None:
        t = int(round(tiles.shape[1] ** 0.5))
        grid = tiles.reshape(tiles_high, tiles_wide, t, t, hidden).permute(0, 2, 1, 3, 4)
        parts.append(with_row_ends(grid.reshape(tiles_high * t, tiles_wide * t, hidden), newline))
    parts.append(with_row_ends(global_view.reshape(side, side, hidden), newline))
    parts.append(separator.reshape(1, hidden))
    return torch.cat(parts, dim=0)


def visual_token_count(global_side: int, tile_side: int, tiles_wide: int, tiles_high: int) -> int:
    """Length of the `<image>` run: matches `layout_visual_tokens` for the same sizes."""
    count = global_side * (global_side + 1) + 1
    if tiles_wide * tiles_high > 1:
        count += tile_side * tiles_high * (tile_side * tiles_wide + 1)
    return count
