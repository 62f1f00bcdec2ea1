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


def add_deep_encoder(module: nn.Module, cfg: ModelConfig) -> None:
    """The DeepEncoder's parts under their checkpoint names (below `model.`): SAM, CLIP, the
    projector and the two layout embeddings."""
    hidden = cfg.decoder.hidden_size
    module.sam_model = ImageEncoderViT(cfg.sam)
    module.vision_model = VitModel(cfg.clip)
    module.projector = MlpProjector(cfg.projector_input_dim, hidden)
    module.image_newline = nn.Parameter(torch.zeros(hidden))
    module.view_seperator = nn.Parameter(torch.zeros(hidden))


class DeepseekOCRModel(DeepseekV2Model):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__(cfg.decoder)
        add_deep_encoder(self, cfg)

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
