"""Architecture sizes for DeepSeek-OCR / jina-ocr-v1, read from a checkpoint's config.json.

The published config.json carries the decoder's sizes under `language_config` (or `text_config`);
the DeepEncoder's sizes are constants in the reference code, so they default to those constants
here and a `folio_vision` object in the same file may override them (the tiny test model does).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Mapping


def _pick(cls: type, values: Mapping[str, Any]) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: v for k, v in values.items() if k in names}


@dataclass(frozen=True)
class SamConfig:
    img_size: int = 1024
    patch_size: int = 16
    embed_dim: int = 768
    depth: int = 12
    num_heads: int = 12
    mlp_ratio: float = 4.0
    out_chans: int = 256
    window_size: int = 14
    global_attn_indexes: tuple[int, ...] = (2, 5, 8, 11)
    # the 16x compressor after the neck: two stride-2 3x3 convs
    net_2_chans: int = 512
    net_3_chans: int = 1024


@dataclass(frozen=True)
class ClipConfig:
    hidden_size: int = 1024
    num_layers: int = 24
    num_attention_heads: int = 16
    ffn_hidden_size: int = 4096
    image_size: int = 224
    patch_size: int = 14
    layernorm_epsilon: float = 1e-5
    pre_layernorm_epsilon: float = 1e-5


@dataclass(frozen=True)
class DecoderConfig:
    vocab_size: int = 129280
    hidden_size: int = 1280
    num_hidden_layers: int = 12
    num_attention_heads: int = 10
    num_key_value_heads: int = 10
    intermediate_size: int = 6848
    moe_intermediate_size: int = 896
    n_routed_experts: int = 64
    n_shared_experts: int = 2
    num_experts_per_tok: int = 6
    first_k_dense_replace: int = 1
    routed_scaling_factor: float = 1.0
    norm_topk_prob: bool = False
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0
    max_position_embeddings: int = 8192
    bos_token_id: int = 0
    eos_token_id: int = 1
    pad_token_id: int = 2

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads


@dataclass(frozen=True)
class ModelConfig:
    sam: SamConfig = field(default_factory=SamConfig)
    clip: ClipConfig = field(default_factory=ClipConfig)
    decoder: DecoderConfig = field(default_factory=DecoderConfig)
    # number of FastMTP heads in the checkpoint (jina-ocr-v1: 1; DeepSeek-OCR: 0)
    num_mtp_heads: int = 0

    @property
    def projector_input_dim(self) -> int:
        return self.clip.hidden_size + self.sam.net_3_chans

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> "ModelConfig":
        text = raw.get("language_config") or raw.get("text_config") or raw
        vision = raw.get("folio_vision", {})
        sam = dict(_pick(SamConfig, vision.get("sam", {})))
        if "global_attn_indexes" in sam:
            sam["global_attn_indexes"] = tuple(sam["global_attn_indexes"])
        # a null value in config.json means "the default", as in transformers
        decoder = {k: v for k, v in _pick(DecoderConfig, text).items() if v is not None}
        # which key jina-ocr-v1 uses for its MTP head count is unverified: accept both spellings
        mtp = next((source[key] for source in (raw, text) for key in ("num_mtp_heads", "num_nextn_predict_layers")
                    if source.get(key) is not None), 0)
        return cls(
            sam=SamConfig(**sam),
            clip=ClipConfig(**_pick(ClipConfig, vision.get("clip", {}))),
            decoder=DecoderConfig(**decoder),
            num_mtp_heads=int(mtp),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "folio_vision": {"sam": asdict(self.sam), "clip": asdict(self.clip)},
            "language_config": asdict(self.decoder),
            "num_mtp_heads": self.num_mtp_heads,
        }
