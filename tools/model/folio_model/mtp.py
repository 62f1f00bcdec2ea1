"""FastMTP draft head (jina-ocr-v1): `mtp_module.heads.{i}.{enorm,hnorm,eh_proj,mtp_block.*}`.

One step: x = eh_proj([enorm(embedding of token t), hnorm(post-norm hidden before t)]), one dense
decoder block with its own cache, then the main model's final norm (and lm_head, applied by the
caller). The embedding comes first in the concatenation.
"""
from __future__ import annotations

import torch
from torch import nn

from .config import DecoderConfig
from .decoder import DeepseekV2DecoderLayer, KeyValue, RMSNorm


class MTPHead(nn.Module):
    def __init__(self, cfg: DecoderConfig) -> None:
        super().__init__()
        self.enorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.hnorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.eh_proj = nn.Linear(2 * cfg.hidden_size, cfg.hidden_size, bias=False)
        self.mtp_block = DeepseekV2DecoderLayer(cfg, dense=True)

    def forward(self, token_embeds: torch.Tensor, previous_hidden: torch.Tensor, position_ids: torch.Tensor,
                final_norm: RMSNorm, past: KeyValue | None) -> tuple[torch.Tensor, KeyValue]:
        x = self.eh_proj(torch.cat([self.enorm(token_embeds), self.hnorm(previous_hidden)], dim=-1))
        x, new = self.mtp_block(x, position_ids, past)
        return final_norm(x), new


class MTPModule(nn.Module):
    def __init__(self, cfg: DecoderConfig, heads: int) -> None:
        super().__init__()
        self.heads = nn.ModuleList(MTPHead(cfg) for _ in range(heads))
