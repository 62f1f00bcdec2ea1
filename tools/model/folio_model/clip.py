"""CLIP-L as DeepEncoder uses it: SAM's compressed feature map replaces the patch embedding,
CLS is prepended, and the 16x16 position table is resized bicubic when the grid differs.

Attribute names follow the checkpoint (`model.vision_model.*`); `pre_layrnorm` is spelled so there.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from .config import ClipConfig


def quick_gelu(x: torch.Tensor) -> torch.Tensor:
    return x * torch.sigmoid(1.702 * x)


def resize_positions(table: torch.Tensor, tokens: int) -> torch.Tensor:
    """[1 + g*g, C] -> [tokens, C]: CLS row kept, the grid resized bicubic with antialias."""
    if table.shape[0] == tokens:
        return table
    src, dst, dim = math.isqrt(table.shape[0] - 1), math.isqrt(tokens - 1), table.shape[1]
    grid = table[1:].reshape(1, src, src, dim).permute(0, 3, 1, 2).float()
    grid = F.interpolate(grid, size=(dst, dst), mode="bicubic", antialias=True, align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(dst * dst, dim).to(table.dtype)
    return torch.cat([table[:1], grid], dim=0)


class CLIPVisionEmbeddings(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        positions = (cfg.image_size // cfg.patch_size) ** 2 + 1
        self.class_embedding = nn.Parameter(torch.zeros(cfg.hidden_size))
        # unused when SAM features are given, but present in the checkpoint
        self.patch_embedding = nn.Conv2d(3, cfg.hidden_size, cfg.patch_size, cfg.patch_size, bias=False)
        self.position_embedding = nn.Embedding(positions, cfg.hidden_size)
        self.register_buffer("position_ids", torch.arange(positions).unsqueeze(0))

    def forward(self, patch_embeds: torch.Tensor) -> torch.Tensor:
        tokens = patch_embeds.flatten(2).transpose(1, 2)
        cls = self.class_embedding.expand(tokens.shape[0], 1, -1)
        x = torch.cat([cls, tokens], dim=1)
        return x + resize_positions(self.position_embedding.weight, x.shape[1])


class NoTPAttention(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        self.heads = cfg.num_attention_heads
        self.qkv_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size * 3)
        self.out_proj = nn.Linear(cfg.hidden_size, cfg.hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, s, dim = x.shape
        qkv = self.qkv_proj(x).reshape(b, s, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q @ k.transpose(-2, -1)) * (q.shape[-1] ** -0.5)
        out = (scores.softmax(-1) @ v).permute(0, 2, 1, 3).reshape(b, s, dim)
        return self.out_proj(out)


class NoTPFeedForward(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        self.fc1 = nn.Linear(cfg.hidden_size, cfg.ffn_hidden_size)
        self.fc2 = nn.Linear(cfg.ffn_hidden_size, cfg.hidden_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(quick_gelu(self.fc1(x)))


class NoTPTransformerBlock(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        self.self_attn = NoTPAttention(cfg)
        self.mlp = NoTPFeedForward(cfg)
        self.layer_norm1 = nn.LayerNorm(cfg.hidden_size, eps=cfg.layernorm_epsilon)
        self.layer_norm2 = nn.LayerNorm(cfg.hidden_size, eps=cfg.layernorm_epsilon)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn(self.layer_norm1(x))
        return x + self.mlp(self.layer_norm2(x))


class NoTPTransformer(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        self.layers = nn.ModuleList(NoTPTransformerBlock(cfg) for _ in range(cfg.num_layers))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self.layers:
            x = layer(x)
        return x


class VitModel(nn.Module):
    def __init__(self, cfg: ClipConfig) -> None:
        super().__init__()
        self.embeddings = CLIPVisionEmbeddings(cfg)
        self.transformer = NoTPTransformer(cfg)
        self.pre_layrnorm = nn.LayerNorm(cfg.hidden_size, eps=cfg.pre_layernorm_epsilon)

    def forward(self, sam_features: torch.Tensor) -> torch.Tensor:
        """[n, C, g, g] SAM output -> [n, 1 + g*g, C] (CLS first)."""
        return self.transformer(self.pre_layrnorm(self.embeddings(sam_features)))
