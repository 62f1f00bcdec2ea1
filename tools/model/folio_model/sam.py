"""SAM ViT-B image encoder as DeepEncoder uses it: windowed/global attention with decomposed
relative positions, the neck, and the 16x compressor (net_2, net_3).

Attribute names follow the checkpoint (`model.sam_model.*`).
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .config import SamConfig


def resize_abs_pos(pos: torch.Tensor, grid: int) -> torch.Tensor:
    """[1, g, g, C] -> [1, grid, grid, C], bicubic with antialias as the reference does."""
    if pos.shape[1] == grid:
        return pos
    resized = F.interpolate(pos.permute(0, 3, 1, 2).float(), size=(grid, grid), mode="bicubic",
                            antialias=True, align_corners=False)
    return resized.permute(0, 2, 3, 1).to(pos.dtype)


def resize_rel_pos(table: torch.Tensor, length: int) -> torch.Tensor:
    """[L, C] -> [length, C] by linear interpolation when the attended grid differs from training."""
    if table.shape[0] == length:
        return table
    resized = F.interpolate(table.float().t().unsqueeze(0), size=length, mode="linear")
    return resized.squeeze(0).t().to(table.dtype)


def relative_table(size: int, table: torch.Tensor) -> torch.Tensor:
    """Embedding of (query - key) for every pair on one axis: [size, size, C]."""
    table = resize_rel_pos(table, 2 * size - 1)
    coords = torch.arange(size)
    return table[(coords[:, None] - coords[None, :] + size - 1)]


class LayerNorm2d(nn.Module):
    def __init__(self, channels: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(channels))
        self.bias = nn.Parameter(torch.zeros(channels))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean = x.mean(1, keepdim=True)
        var = (x - mean).pow(2).mean(1, keepdim=True)
        x = (x - mean) / torch.sqrt(var + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


class PatchEmbed(nn.Module):
    def __init__(self, patch: int, dim: int) -> None:
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x).permute(0, 2, 3, 1)


class MLPBlock(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.lin1 = nn.Linear(dim, hidden)
        self.lin2 = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.lin2(F.gelu(self.lin1(x)))


# most queries one attention pass scores at once (see Attention.forward)
QUERY_BAND = 1024


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int, size: int) -> None:
        super().__init__()
        self.heads = heads
        head_dim = dim // heads
        self.scale = head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.rel_pos_h = nn.Parameter(torch.zeros(2 * size - 1, head_dim))
        self.rel_pos_w = nn.Parameter(torch.zeros(2 * size - 1, head_dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, h, w, dim = x.shape
        qkv = self.qkv(x).reshape(b, h * w, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # [b, heads, hw, d]
        # queries a band of grid rows at a time: a global block at 1024 px has 4096 of them, and the
        # whole [heads, 4096, 4096] score matrix (805 MB in fp32, three times over) is what made
        # exporting and running the vision graph need gigabytes; softmax is per query, so bands are
        # exact. One band (every windowed block, and global ones up to 1024 queries) traces as before.
        band = max(1, QUERY_BAND // w)
        single = band >= h
        outs = []
        for top in range(0, h, band):
            rows = h if single else min(band, h - top)
            queries = q if single else q[:, :, top * w:(top + rows) * w]
            scores = (queries * self.scale) @ k.transpose(-2, -1)
            # decomposed relative positions: one term per axis, from the unscaled query
            grid_q = queries.reshape(b, self.heads, rows, w, -1)
            table_h = relative_table(h, self.rel_pos_h)
            rel_h = torch.einsum("bnhwc,hkc->bnhwk", grid_q, table_h if single else table_h[top:top + rows])
            rel_w = torch.einsum("bnhwc,wkc->bnhwk", grid_q, relative_table(w, self.rel_pos_w))
            bias = rel_h.unsqueeze(-1) + rel_w.unsqueeze(-2)  # [b, n, rows, w, kh, kw]
            scores = scores + bias.reshape(b, self.heads, h * w if single else rows * w, h * w)
            outs.append(scores.softmax(-1) @ v)
        out = outs[0] if len(outs) == 1 else torch.cat(outs, dim=2)
        out = out.permute(0, 2, 1, 3).reshape(b, h, w, dim)
        return self.proj(out)


def window_partition(x: torch.Tensor, window: int) -> tuple[torch.Tensor, int, int]:
    b, h, w, c = x.shape
    pad_h, pad_w = (-h) % window, (-w) % window
    if pad_h or pad_w:
        x = F.pad(x, (0, 0, 0, pad_w, 0, pad_h))
    hp, wp = h + pad_h, w + pad_w
    x = x.reshape(b, hp // window, window, wp // window, window, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, window, window, c), hp, wp


def window_unpartition(x: torch.Tensor, window: int, hp: int, wp: int, h: int, w: int) -> torch.Tensor:
    c = x.shape[-1]
    x = x.reshape(-1, hp // window, wp // window, window, window, c).permute(0, 1, 3, 2, 4, 5)
    return x.reshape(-1, hp, wp, c)[:, :h, :w, :]


class Block(nn.Module):
    def __init__(self, cfg: SamConfig, window: int) -> None:
        super().__init__()
        grid = cfg.img_size // cfg.patch_size
        self.window = window
        self.norm1 = nn.LayerNorm(cfg.embed_dim, eps=1e-6)
        self.attn = Attention(cfg.embed_dim, cfg.num_heads, window or grid)
        self.norm2 = nn.LayerNorm(cfg.embed_dim, eps=1e-6)
        self.mlp = MLPBlock(cfg.embed_dim, int(cfg.embed_dim * cfg.mlp_ratio))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h, w = x.shape[1], x.shape[2]
        y = self.norm1(x)
        if self.window:
            y, hp, wp = window_partition(y, self.window)
            y = window_unpartition(self.attn(y), self.window, hp, wp, h, w)
        else:
            y = self.attn(y)
        x = x + y
        return x + self.mlp(self.norm2(x))


class ImageEncoderViT(nn.Module):
    def __init__(self, cfg: SamConfig) -> None:
        super().__init__()
        grid = cfg.img_size // cfg.patch_size
        self.patch_embed = PatchEmbed(cfg.patch_size, cfg.embed_dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, grid, grid, cfg.embed_dim))
        self.blocks = nn.ModuleList(
            Block(cfg, 0 if i in cfg.global_attn_indexes else cfg.window_size) for i in range(cfg.depth)
        )
        self.neck = nn.Sequential(
            nn.Conv2d(cfg.embed_dim, cfg.out_chans, kernel_size=1, bias=False),
            LayerNorm2d(cfg.out_chans),
            nn.Conv2d(cfg.out_chans, cfg.out_chans, kernel_size=3, padding=1, bias=False),
            LayerNorm2d(cfg.out_chans),
        )
        self.net_2 = nn.Conv2d(cfg.out_chans, cfg.net_2_chans, 3, stride=2, padding=1, bias=False)
        self.net_3 = nn.Conv2d(cfg.net_2_chans, cfg.net_3_chans, 3, stride=2, padding=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """[n, 3, S, S] -> [n, net_3_chans, S/64, S/64]"""
        x = self.patch_embed(x)
        x = x + resize_abs_pos(self.pos_embed, x.shape[1])
        for block in self.blocks:
            x = block(x)
        return self.net_3(self.net_2(self.neck(x.permute(0, 3, 1, 2))))
