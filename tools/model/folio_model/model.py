"""The whole checkpoint as one module tree: `model.*`, `lm_head`, and `mtp_module` when present,
so `load_state_dict(strict=True)` on a real safetensors set checks every name and shape."""
from __future__ import annotations

import torch
from torch import nn

from .clip import VitModel
from .config import ModelConfig
from .decoder import DeepseekV2Model
from .mtp import MTPModule
from .sam import ImageEncoderViT
from .vision import MlpProjector, encode_views


class DeepseekOCRModel(DeepseekV2Model):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__(cfg.decoder)
        hidden = cfg.decoder.hidden_size
        self.sam_model = ImageEncoderViT(cfg.sam)
        self.vision_model = VitModel(cfg.clip)
        self.projector = MlpProjector(cfg.projector_input_dim, hidden)
        self.image_newline = nn.Parameter(torch.zeros(hidden))
        self.view_seperator = nn.Parameter(torch.zeros(hidden))

    def encode_views(self, pixels: torch.Tensor) -> torch.Tensor:
        return encode_views(self.sam_model, self.vision_model, self.projector, pixels)


class DeepseekOCRForCausalLM(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.model = DeepseekOCRModel(cfg)
        self.lm_head = nn.Linear(cfg.decoder.hidden_size, cfg.decoder.vocab_size, bias=False)
        if cfg.num_mtp_heads:
            self.mtp_module = MTPModule(cfg.decoder, cfg.num_mtp_heads)
