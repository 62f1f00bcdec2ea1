"""Architecture sizes for DeepSeek-OCR / jina-ocr-v1, read from a checkpoint's config.json, where
every field is either honoured or refused.

The published config.json files carry the decoder's fields twice, at the top level (Hugging Face's
`DeepseekOCRConfig` subclasses `DeepseekV2Config`, whose fields it flattens there) and under
`language_config` (which vLLM reads); both places are read and must agree. The DeepEncoder's sizes
come from `vision_config.width.{sam_vit_b,clip-l-14-224}`, the projector's from `projector_config`.
Folio's own `folio_vision` object (what `to_dict` writes) may set any SamConfig/ClipConfig field.

Each field is one of:
- mapped into SamConfig / ClipConfig / DecoderConfig (or the MTP head count);
- required: a value that selects arithmetic Folio implements (`scoring_func: softmax`); any other
  value is refused, since the export would succeed and the model would decode garbage;
- known and ignored: it changes no arithmetic (`architectures`, `torch_dtype`, training-only loss
  weights, parallelism degrees);
- unknown: refused too, unless the caller passes `allow_unknown=True` (the exporter's
  `--allow-unknown-config`).
A refusal is a ConfigError naming every offending field by its path, its value and what is supported.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Mapping


class ConfigError(ValueError):
    """config.json holds fields Folio cannot honour; `problems` has one line per field."""

    def __init__(self, problems: list[str], source: str = "config.json") -> None:
        self.problems = problems
        self.source = source
        count = "1 field" if len(problems) == 1 else f"{len(problems)} fields"
        super().__init__(f"{source}: {count} Folio cannot honour:" + "".join(f"\n  - {p}" for p in problems))


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


# ---- the field table -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Map:
    """Sets `target` ("decoder.rope_theta", "sam.depth", "mtp"); null means the default unless
    `null_refused` says why null cannot be honoured."""
    target: str
    null_refused: str = ""
    convert: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class _Require:
    """Honoured only at one of `allowed` (absent means the default, which is implemented)."""
    allowed: tuple[Any, ...]
    supported: str


@dataclass(frozen=True)
class _Ignore:
    reason: str


@dataclass(frozen=True)
class _Section:
    """A nested object read by its own table."""
    name: str


Rule = _Map | _Require | _Ignore | _Section

_NO_MLA = "plain multi-head attention (use_mla false) is implemented, not MLA"
_NONE_OR_ZERO = (None, 0)

# Decoder fields: valid at the top level, under language_config / text_config, or both.
LANGUAGE_FIELDS: dict[str, Rule] = {
    **{name: _Map(f"decoder.{name}") for name in (
        "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
        "intermediate_size", "moe_intermediate_size", "num_experts_per_tok", "first_k_dense_replace",
        "routed_scaling_factor", "norm_topk_prob", "rms_norm_eps", "rope_theta", "max_position_embeddings",
        "bos_token_id", "eos_token_id", "pad_token_id")},
    "n_routed_experts": _Map("decoder.n_routed_experts",
                             null_refused="null (every layer dense) is not implemented; Folio needs MoE layers"),
    "n_shared_experts": _Map("decoder.n_shared_experts",
                             null_refused="null (no shared experts) is not implemented"),
    "num_nextn_predict_layers": _Map("mtp"),
    "num_mtp_heads": _Map("mtp"),
    "mtp_num_heads": _Map("mtp"),
    "hidden_act": _Require(("silu",), "'silu' (SwiGLU experts and MLPs)"),
    "scoring_func": _Require(("softmax",), "'softmax' router scores"),
    "topk_method": _Require(("greedy",), "'greedy' top-k over all experts"),
    "n_group": _Require((None, 1), "1 (ungrouped routing)"),
    "topk_group": _Require((None, 1), "1 (ungrouped routing)"),
    "moe_layer_freq": _Require((None, 1), "1 (every layer after first_k_dense_replace is MoE)"),
    "rope_scaling": _Require((None,), "null (plain RoPE without scaling)"),
    "sliding_window": _Require((None,), "null (full causal attention)"),
    "sliding_window_size": _Require((None,), "null (full causal attention)"),
    "use_sliding_window": _Require((None, False), "false (full causal attention)"),
    "attention_bias": _Require((None, False), "false (q/k/v/o without bias)"),
    "mlp_bias": _Require((None, False), "false (MLPs without bias)"),
    "use_mla": _Require((None, False), _NO_MLA),
    "kv_lora_rank": _Require((None,), "null: " + _NO_MLA),
    "q_lora_rank": _Require((None,), "null: " + _NO_MLA),
    "qk_nope_head_dim": _Require(_NONE_OR_ZERO, "0: " + _NO_MLA),
    "qk_rope_head_dim": _Require(_NONE_OR_ZERO, "0: " + _NO_MLA),
    "v_head_dim": _Require(_NONE_OR_ZERO, "0: " + _NO_MLA),
    "tie_word_embeddings": _Require((None, False), "false (a separate lm_head)"),
    "lm_head": _Require((None, True), "true (the model has an lm_head)"),
    "rm_head": _Require((None, False), "false (no reward-model head)"),
    "mtp_moe": _Require((None, False), "false (the FastMTP head has a dense MLP)"),
    "mtp_recursive": _Require((None, True), "true (one FastMTP head applied recursively)"),
    "mtp_share_embedding_weights": _Require((None, True), "true (the head uses the model's embedding)"),
    "mtp_share_lm_head": _Require((None, True), "true (the head uses the model's lm_head)"),
    "mtp_share_norm": _Require((None, True), "true (the head uses the model's final norm)"),
    "image_token_index": _Require((None, 128815), "128815, the `<image>` id of the published tokenizers"),
    "image_token_id": _Require((None, 128815), "128815, the `<image>` id of the published tokenizers"),
    "mtp_num_speculative_steps": _Ignore("a runtime default for K; Folio measures K per device"),
    "aux_loss_alpha": _Ignore("training loss weight"),
    "seq_aux": _Ignore("training loss switch"),
    "ep_size": _Ignore("expert parallelism across devices: same arithmetic"),
    "pretraining_tp": _Ignore("tensor-parallel split of the MLPs: same arithmetic"),
    "attention_dropout": _Ignore("dropout: inactive at inference"),
    "initializer_range": _Ignore("initialisation of untrained weights"),
    "use_cache": _Ignore("a generation switch"),
}

METADATA_FIELDS: dict[str, Rule] = {name: _Ignore("metadata") for name in (
    "architectures", "auto_map", "model_type", "_name_or_path", "transformers_version", "torch_dtype", "dtype")}

TOP_FIELDS: dict[str, Rule] = {
    **LANGUAGE_FIELDS,
    **METADATA_FIELDS,
    "language_config": _Section("language"),
    "text_config": _Section("language"),
    "vision_config": _Section("vision"),
    "projector_config": _Section("projector"),
    "folio_vision": _Section("folio_vision"),
    "candidate_resolutions": _Require((None, [[1024, 1024]]),
                                      "[[1024, 1024]] (a 1024-pixel global view with 640-pixel tiles)"),
    "global_view_pos": _Require((None, "head"), "'head' (tiles, then the global view, then the separator)"),
    "tile_tag": _Require((None, "2D"), "'2D' (a newline after each row of visual tokens)"),
}

VISION_FIELDS: dict[str, Rule] = {
    **METADATA_FIELDS,
    "model_name": _Require((None, "deeplip_b_l"), "'deeplip_b_l' (SAM ViT-B + CLIP-L DeepEncoder)"),
    "image_size": _Map("sam.img_size"),
    # DeepSeek-VL2's SigLIP ratio (4304/1152); DeepEncoder's SAM and CLIP fix their own MLP widths
    "mlp_ratio": _Ignore("not read by DeepSeek-OCR's DeepEncoder"),
    "width": _Section("vision_width"),
}

VISION_WIDTH_FIELDS: dict[str, Rule] = {
    "sam_vit_b": _Section("sam_vit_b"),
    "clip-l-14-224": _Section("clip_l"),
}


def _channels(value: Any) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2):
        raise ValueError("two channel counts [net_2, net_3]")
    return int(value[0]), int(value[1])


SAM_FIELDS: dict[str, Rule] = {
    "width": _Map("sam.embed_dim"),
    "layers": _Map("sam.depth"),
    "heads": _Map("sam.num_heads"),
    "global_attn_indexes": _Map("sam.global_attn_indexes"),
    "downsample_channels": _Map("sam.net_channels", convert=_channels),
    "image_size": _Map("sam.img_size"),
    "patch_size": _Map("sam.patch_size"),
}

CLIP_FIELDS: dict[str, Rule] = {
    "width": _Map("clip.hidden_size"),
    "layers": _Map("clip.num_layers"),
    "heads": _Map("clip.num_attention_heads"),
    "image_size": _Map("clip.image_size"),
    "patch_size": _Map("clip.patch_size"),
}

PROJECTOR_FIELDS: dict[str, Rule] = {
    **METADATA_FIELDS,
    "projector_type": _Require((None, "linear"), "'linear' (one Linear(2048, 1280) with bias)"),
    "input_dim": _Map("projector.input_dim"),
    "n_embed": _Map("projector.n_embed"),
}

FOLIO_VISION_FIELDS: dict[str, Rule] = {"sam": _Section("folio_sam"), "clip": _Section("folio_clip")}

SECTIONS: dict[str, dict[str, Rule]] = {
    "top": TOP_FIELDS,
    "language": LANGUAGE_FIELDS | METADATA_FIELDS,
    "vision": VISION_FIELDS,
    "vision_width": VISION_WIDTH_FIELDS,
    "sam_vit_b": SAM_FIELDS,
    "clip_l": CLIP_FIELDS,
    "projector": PROJECTOR_FIELDS,
    "folio_vision": FOLIO_VISION_FIELDS,
    "folio_sam": {f.name: _Map(f"sam.{f.name}") for f in fields(SamConfig)},
    "folio_clip": {f.name: _Map(f"clip.{f.name}") for f in fields(ClipConfig)},
}

_TARGET_TYPES: dict[str, type] = {
    **{f"decoder.{f.name}": f.type for f in fields(DecoderConfig)},
    **{f"sam.{f.name}": f.type for f in fields(SamConfig)},
    **{f"clip.{f.name}": f.type for f in fields(ClipConfig)},
    "mtp": "int", "projector.input_dim": "int", "projector.n_embed": "int", "sam.net_channels": "tuple",
}


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _typed(value: Any, kind: Any) -> Any:
    """The JSON value as the dataclass field's type; ValueError names the expected kind."""
    kind = kind if isinstance(kind, str) else getattr(kind, "__name__", str(kind))
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueError("true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
            raise ValueError("an integer")
        return int(value)
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError("a number")
        return float(value)
    if kind.startswith("tuple"):
        if not isinstance(value, (list, tuple)) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
            raise ValueError("a list of integers")
        return tuple(value)
    return value


class _Reader:
    """Walks config.json against the tables, collecting mapped values, problems and unknown fields."""

    def __init__(self, sizes_only: bool = False) -> None:
        # sizes_only: refuse nothing that leaves the tensor shapes defined (for checkpoint makers)
        self.sizes_only = sizes_only
        self.values: dict[str, tuple[Any, str]] = {}  # target -> (value, path it came from)
        self.problems: list[str] = []
        self.unknown: list[str] = []

    def read(self, raw: Mapping[str, Any], section: str, prefix: str) -> None:
        table = SECTIONS[section]
        for key, value in raw.items():
            path = f"{prefix}{key}"
            rule = table.get(key)
            if rule is None:
                self.unknown.append(path)
            elif isinstance(rule, _Section):
                if value is None:
                    continue
                if not isinstance(value, Mapping):
                    self.problems.append(f"{path} = {value!r}: expected an object")
                    continue
                self.read(value, rule.name, f"{path}.")
            elif isinstance(rule, _Require) and not self.sizes_only:
                if not any(_same(value, allowed) for allowed in rule.allowed):
                    self.problems.append(f"{path} = {value!r} is not supported: Folio implements {rule.supported}")
            elif isinstance(rule, _Map):
                self.map(rule, value, path)

    def map(self, rule: _Map, value: Any, path: str) -> None:
        if value is None:
            if rule.null_refused and not self.sizes_only:
                self.problems.append(f"{path} = null is not supported: {rule.null_refused}")
            return
        try:
            value = rule.convert(value) if rule.convert else _typed(value, _TARGET_TYPES[rule.target])
        except (TypeError, ValueError) as error:
            self.problems.append(f"{path} = {value!r}: expected {error}")
            return
        earlier = self.values.get(rule.target)
        if earlier is not None and not _same(earlier[0], value):
            # the more nested place first, so the message reads the same whatever the key order
            (a, x), (b, y) = sorted([(path, value), (earlier[1], earlier[0])], key=lambda p: (-p[0].count("."), p[0]))
            self.problems.append(f"{a} = {x!r} contradicts {b} = {y!r}; the two must agree")
            return
        self.values.setdefault(rule.target, (value, path))

    def group(self, name: str) -> dict[str, Any]:
        return {target.split(".", 1)[1]: value for target, (value, _) in self.values.items()
                if target.startswith(name + ".")}

    def path_of(self, target: str, fallback: str) -> str:
        return self.values[target][1] if target in self.values else fallback


def _check_sizes(cfg: "ModelConfig", reader: _Reader) -> list[str]:
    """Values that are each honoured alone but cannot build a model together."""
    d, sam, clip = cfg.decoder, cfg.sam, cfg.clip
    at = reader.path_of
    problems = []
    for target, heads, width in (("decoder.num_attention_heads", d.num_attention_heads, d.hidden_size),
                                 ("sam.num_heads", sam.num_heads, sam.embed_dim),
                                 ("clip.num_attention_heads", clip.num_attention_heads, clip.hidden_size)):
        if heads <= 0 or width % heads:
            problems.append(f"{at(target, target)} = {heads} does not divide the width {width} into heads")
    if d.num_key_value_heads <= 0 or d.num_attention_heads % d.num_key_value_heads:
        problems.append(f"{at('decoder.num_key_value_heads', 'num_key_value_heads')} = {d.num_key_value_heads} "
                        f"does not divide num_attention_heads {d.num_attention_heads}")
    if not 0 < d.num_experts_per_tok <= d.n_routed_experts:
        problems.append(f"{at('decoder.num_experts_per_tok', 'num_experts_per_tok')} = {d.num_experts_per_tok} "
                        f"must be between 1 and n_routed_experts ({d.n_routed_experts})")
    if not 0 <= d.first_k_dense_replace <= d.num_hidden_layers:
        problems.append(f"{at('decoder.first_k_dense_replace', 'first_k_dense_replace')} = "
                        f"{d.first_k_dense_replace} must be between 0 and num_hidden_layers ({d.num_hidden_layers})")
    outside = [i for i in sam.global_attn_indexes if not 0 <= i < sam.depth]
    if outside:
        problems.append(f"{at('sam.global_attn_indexes', 'global_attn_indexes')} = {list(sam.global_attn_indexes)}: "
                        f"{outside} are not blocks of a SAM of depth {sam.depth}")
    if sam.img_size % sam.patch_size:
        problems.append(f"{at('sam.img_size', 'image_size')} = {sam.img_size} is not a multiple of the SAM patch "
                        f"size {sam.patch_size}")
    if clip.image_size % clip.patch_size:
        problems.append(f"{at('clip.image_size', 'image_size')} = {clip.image_size} is not a multiple of the CLIP "
                        f"patch size {clip.patch_size}")
    projector = reader.group("projector")
    if "input_dim" in projector and projector["input_dim"] != cfg.projector_input_dim:
        problems.append(f"{at('projector.input_dim', 'input_dim')} = {projector['input_dim']} is not CLIP width "
                        f"{clip.hidden_size} + SAM output {sam.net_3_chans} = {cfg.projector_input_dim}")
    if "n_embed" in projector and projector["n_embed"] != d.hidden_size:
        problems.append(f"{at('projector.n_embed', 'n_embed')} = {projector['n_embed']} is not the decoder's "
                        f"hidden_size {d.hidden_size}")
    if cfg.num_mtp_heads not in (0, 1):
        problems.append(f"{at('mtp', 'num_nextn_predict_layers')} = {cfg.num_mtp_heads} is not supported: Folio "
                        "exports one FastMTP head (or none)")
    return problems


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
    def from_dict(cls, raw: Mapping[str, Any], *, allow_unknown: bool = False) -> "ModelConfig":
        """Raises ConfigError listing every field it cannot honour; unknown fields are among them
        unless `allow_unknown` (then `unknown_fields` says which were skipped)."""
        reader = _Reader()
        reader.read(raw, "top", "")
        problems = list(reader.problems)
        if reader.unknown and not allow_unknown:
            problems += [f"{path}: unknown field; Folio cannot tell whether it changes the model's arithmetic "
                         "(export with --allow-unknown-config to skip it)" for path in reader.unknown]
        if problems:
            raise ConfigError(problems)
        cfg = _build(reader)
        problems = _check_sizes(cfg, reader)
        if problems:
            raise ConfigError(problems)
        return cfg

    def to_dict(self) -> dict[str, Any]:
        return {
            "folio_vision": {"sam": asdict(self.sam), "clip": asdict(self.clip)},
            "language_config": asdict(self.decoder),
            "num_mtp_heads": self.num_mtp_heads,
        }


def sizes_from_dict(raw: Mapping[str, Any]) -> ModelConfig:
    """The sizes config.json gives, without refusing values that leave the tensors' names and shapes
    as Folio builds them (`scoring_func`, unknown fields, an MTP count of 2): what a tool that makes
    checkpoints for the exporter to judge needs. Contradictory or mistyped sizes still raise."""
    reader = _Reader(sizes_only=True)
    reader.read(raw, "top", "")
    if reader.problems:
        raise ConfigError(reader.problems)
    return _build(reader)


def unknown_fields(raw: Mapping[str, Any]) -> list[str]:
    """Paths of the fields no table knows: what `allow_unknown=True` skips."""
    reader = _Reader()
    reader.read(raw, "top", "")
    return reader.unknown


def _build(reader: _Reader) -> ModelConfig:
    sam = reader.group("sam")
    if "net_channels" in sam:
        sam["net_2_chans"], sam["net_3_chans"] = sam.pop("net_channels")
    mtp = reader.values.get("mtp", (0, ""))[0]
    return ModelConfig(sam=SamConfig(**sam), clip=ClipConfig(**reader.group("clip")),
                       decoder=DecoderConfig(**reader.group("decoder")), num_mtp_heads=mtp)
