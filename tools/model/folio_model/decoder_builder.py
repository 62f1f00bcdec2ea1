"""The decoder, token-embedding and FastMTP graphs written op by op from the checkpoint's tensors,
in one of three precisions, with ONNX Runtime's fused operators:

- `SimplifiedLayerNormalization` / `SkipSimplifiedLayerNormalization` for RMSNorm and the residual adds,
- `RotaryEmbedding` for rotate-half RoPE, `MultiHeadAttention` over the past rows and the new ones,
- `MoE` (fp32, fp16) or `QMoE` (int4) for the routed experts: only each token's top-k experts run,
- `MatMulNBits` for every other matrix in int4.

The graphs keep the package's interface (decoder: new key/value rows only, logits for the last
`num_logits` rows; MTP head: its cache at capacity with an attention bias), so the runtime reads
every precision the same way. Each weight is read from the checkpoint when its node is written and
goes straight to the graph's external data file. The PyTorch reference (`decoder.py`, `graphs.py`)
is the judge: tests compare these graphs with it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from onnx import TensorProto

from .checkpoint_reader import CheckpointReader
from .config import DecoderConfig
from .graph_writer import CONTRIB_DOMAIN, TYPE_NAMES, ExternalData, GraphWriter
from .onnx_export import TensorSpec, half_weights
from .quantize import BITS, quantise

INT64_MAX = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Precision:
    name: str
    # activations, graph inputs and outputs (logits are always float32)
    float_type: int
    # weights of the non-quantised matrices and norms
    weight_dtype: type
    quantised: bool
    block_size: int = 32
    # bits of the routed experts; None: 4 where MLAS's blocks fit (expert_layout). ONNX Runtime
    # 1.30's CPU QMoE runs 4-bit experts in MLAS blocks through MLAS's own 4-bit GEMM when
    # ORT_USE_MLAS_Q4_GEMM_MOE=1 (the runtime sets it for graphs whose experts are in that form):
    # one token through a real-width layer's 64 experts took 2.4 ms in blocks of 128 against 5.1 ms
    # with 8 bits per column, the fastest 8-bit layout (blocks of 32: 10 ms; 4-bit experts without
    # that kernel: 52-57 ms in blocks, 5.3 per column). The price is memory: QMoE also keeps them
    # unpacked, a byte a value, where 8-bit experts are read from the mapped file
    expert_bits: int | None = None
    # the routed experts' quantisation block along K; 0: one scale per output column. None for
    # either: chosen by expert_layout
    expert_block_size: int | None = None
    # the vision encoder's linear layers as 8-bit MatMulNBits (int4 packages): a real-width
    # vision_1024 session took 0.65 GB instead of 1.9 and peaked at 1.5 GB instead of 2.8 over a
    # view, in 14 s instead of 20 on this 2-core machine; its features kept a cosine of 0.9998
    vision_linear_bits: int | None = None
    # MatMulNBits `accuracy_level` 4: activations quantised to int8 per block, the CPU's integer dot
    # products (AVX-VNNI here); the other matrices of a real-width decoder step took 40 ms of
    # kernel time instead of 65
    accuracy_level: int = 4

    @property
    def float_name(self) -> str:
        return TYPE_NAMES[self.float_type]

    @property
    def activation_dtype(self) -> type:
        return np.float16 if self.float_type == TensorProto.FLOAT16 else np.float32


# The blocks MLAS's 4-bit GEMM takes (BlkQ4Sym, BlkQ4Sym64, BlkQ4Sym128), largest first: 128 ran
# 2.4 ms a token through a real-width layer's experts, 64 3.7 ms, 32 4.0 ms. ONNX Runtime 1.30's
# QMoE gives NaN through that kernel when a matrix's K is a single block (measured at K = 64 and
# 128), so a block must fit at least twice into both of the experts' widths.
MLAS_EXPERT_BLOCKS = (128, 64, 32)


def _mlas_block(block: int, cfg: DecoderConfig) -> bool:
    return block in MLAS_EXPERT_BLOCKS and all(w % block == 0 and w >= 2 * block
                                               for w in (cfg.hidden_size, cfg.moe_intermediate_size))


@dataclass(frozen=True)
class ExpertLayout:
    """How the routed experts are stored, as the manifest's `routed_experts` records it. `signed`
    scales (quantize.py), in a block MLAS's 4-bit GEMM takes, let the runtime hand them to that
    kernel without loss (electron/engine/vlm/expert-kernel.ts)."""
    bits: int
    block_size: int
    signed: bool

    def manifest(self) -> dict:
        return {"bits": self.bits, "block_size": self.block_size, "scales": "signed" if self.signed else "symmetric"}


def expert_layout(precision: Precision, cfg: DecoderConfig) -> ExpertLayout:
    """The routed experts' bits and block for `precision` at the checkpoint's widths. By default 4
    bits in the largest MLAS block that fits, else 8 bits per column (the tiny test models)."""
    bits, block = precision.expert_bits, precision.expert_block_size
    if block is None:
        fitting = [b for b in MLAS_EXPERT_BLOCKS if _mlas_block(b, cfg)]
        block = fitting[0] if bits in (None, 4) and fitting else 0
    if bits is None:
        bits = 4 if block else 8
    return ExpertLayout(bits, block, bits == 4 and _mlas_block(block, cfg))


PRECISIONS = {
    "fp32": Precision("fp32", TensorProto.FLOAT, np.float32, quantised=False),
    "fp16": Precision("fp16", TensorProto.FLOAT16, np.float16, quantised=False),
    # int4 weights with float32 activations: the CPU provider runs them as they are, and WebGPU too
    "int4": Precision("int4", TensorProto.FLOAT, np.float32, quantised=True, vision_linear_bits=8),
}

# Which execution providers each precision is meant for, as the manifest records it. fp16 needs a
# GPU to pay: ONNX Runtime's CPU provider computes it (the tests run it there) but has few fp16
# kernels and casts around the rest; WebGPU has no float `MoE` kernel at all, so it runs int4.
PROVIDERS = {"fp32": ["cpu", "cuda"], "fp16": ["cuda"], "int4": ["cpu", "webgpu", "cuda"]}


class _Weights:
    """Checkpoint tensors in the precision's storage type; fp16 overflow refused by name."""

    def __init__(self, reader: CheckpointReader, precision: Precision) -> None:
        self.reader = reader
        self.precision = precision

    def read(self, name: str) -> np.ndarray:
        return self.reader.read(name)

    def stored(self, name: str, array: np.ndarray | None = None) -> np.ndarray:
        array = self.reader.read(name) if array is None else array
        if self.precision.weight_dtype == np.float16:
            return half_weights(name, array)
        return array.astype(np.float32, copy=False)


class _Layers:
    """Node-writing steps shared by the decoder and the MTP head."""

    def __init__(self, g: GraphWriter, weights: _Weights, cfg: DecoderConfig, precision: Precision) -> None:
        self.g = g
        self.w = weights
        self.cfg = cfg
        self.p = precision
        self._rope: tuple[str, str] | None = None
        self._heads_shape: str | None = None

    def linear(self, x: str, weight: np.ndarray, name: str, quantised: bool | None = None) -> str:
        """x @ weight.T for a checkpoint matrix `weight` [out, in]."""
        quantised = self.p.quantised if quantised is None else quantised
        n, k = weight.shape
        if quantised:
            q = quantise(weight, self.p.block_size)
            scales = q.scales.astype(self.p.activation_dtype)
            return self.g.op("MatMulNBits", [x, self.g.weight(f"{name}.qweight", q.packed),
                                             self.g.weight(f"{name}.scales", scales)], name,
                             domain=CONTRIB_DOMAIN, K=k, N=n, bits=BITS, block_size=self.p.block_size,
                             **self.matmul_accuracy())
        stored = self.w.stored(name, weight)
        return self.g.op("MatMul", [x, self.g.weight(f"{name}.weight", np.ascontiguousarray(stored.T))], name)

    def matmul_accuracy(self) -> dict[str, int]:
        """int8 arithmetic for the int4 precision's matrices; the fp32 and fp16 packages' 4-bit draft
        lm_head keeps the kernels' default, so their graphs compute as before."""
        return {"accuracy_level": self.p.accuracy_level} if self.p.quantised and self.p.accuracy_level else {}

    def norm(self, x: str, weight: str, name: str) -> str:
        return self.g.op("SimplifiedLayerNormalization", [x, self.g.weight(weight, self.w.stored(weight))], name,
                         axis=-1, epsilon=self.cfg.rms_norm_eps, stash_type=1)

    def add_norm(self, x: str, residual: str, weight: str, name: str) -> tuple[str, str]:
        """(RMSNorm(x + residual), x + residual) in one node."""
        normed, _, _, total = self.g.op("SkipSimplifiedLayerNormalization",
                                        [x, residual, self.g.weight(weight, self.w.stored(weight))], name,
                                        outputs=4, omit=(1, 2), domain=CONTRIB_DOMAIN, epsilon=self.cfg.rms_norm_eps)
        return normed, total

    def rope_caches(self) -> tuple[str, str]:
        if self._rope is None:
            dim = self.cfg.head_dim
            inv_freq = 1.0 / (self.cfg.rope_theta ** (np.arange(0, dim, 2, dtype=np.float32) / dim))
            angles = np.arange(self.cfg.max_position_embeddings, dtype=np.float32)[:, None] * inv_freq[None, :]
            dtype = self.p.activation_dtype
            self._rope = (self.g.weight("rope.cos", np.cos(angles).astype(dtype)),
                          self.g.weight("rope.sin", np.sin(angles).astype(dtype)))
        return self._rope

    def rotate(self, x: str, position_ids: str, name: str) -> str:
        cos, sin = self.rope_caches()
        return self.g.op("RotaryEmbedding", [x, position_ids, cos, sin], name, domain=CONTRIB_DOMAIN,
                         interleaved=0, num_heads=self.cfg.num_attention_heads)

    def qkv(self, x: str, prefix: str, position_ids: str) -> tuple[str, str, str]:
        """RoPE'd q and k and plain v, each [1, s, hidden], from one fused projection."""
        weight = np.concatenate([self.w.read(f"{prefix}.{m}_proj.weight") for m in "qkv"])
        fused = self.linear(x, weight, f"{prefix}.qkv_proj")
        hidden = self.cfg.num_attention_heads * self.cfg.head_dim
        q, k, v = self.g.op("Split", [fused, self.g.const(f"{prefix}.qkv_sizes", np.array([hidden] * 3))],
                            f"{prefix}.qkv_split", outputs=3, axis=-1)
        return self.rotate(q, position_ids, f"{prefix}.q_rope"), self.rotate(k, position_ids, f"{prefix}.k_rope"), v

    def swiglu_mlp(self, x: str, prefix: str) -> str:
        gate_up = np.concatenate([self.w.read(f"{prefix}.gate_proj.weight"), self.w.read(f"{prefix}.up_proj.weight")])
        fused = self.linear(x, gate_up, f"{prefix}.gate_up_proj")
        half = gate_up.shape[0] // 2
        gate, up = self.g.op("Split", [fused, self.g.const(f"{prefix}.sizes", np.array([half, half]))],
                             f"{prefix}.split", outputs=2, axis=-1)
        silu = self.g.op("Mul", [gate, self.g.op("Sigmoid", [gate], f"{prefix}.sigmoid")], f"{prefix}.silu")
        return self.linear(self.g.op("Mul", [silu, up], f"{prefix}.gated"), self.w.read(f"{prefix}.down_proj.weight"),
                           f"{prefix}.down_proj")

    def heads_shape(self) -> str:
        """The `[1, -1, heads, dim]` shape constant, written once per graph."""
        if self._heads_shape is None:
            self._heads_shape = self.g.const("shape.heads", np.array([1, -1, self.cfg.num_key_value_heads, self.cfg.head_dim]))
        return self._heads_shape

    def last_rows_logits(self, hidden: str, num_logits: str, lm_head: np.ndarray, quantised: bool) -> str:
        count = self.g.op("Unsqueeze", [num_logits, self.g.const("axes.0", np.array([0]))], "logits.count")
        rows = self.g.op("Slice", [hidden, self.g.op("Neg", [count], "logits.start"),
                                   self.g.const("int64.max", np.array([INT64_MAX])),
                                   self.g.const("axes.1", np.array([1]))], "logits.rows")
        logits = self.linear(rows, lm_head, "lm_head", quantised=quantised)
        if self.p.float_type != TensorProto.FLOAT:
            logits = self.g.op("Cast", [logits], "logits.float", to=TensorProto.FLOAT)
        return logits


@dataclass(frozen=True)
class BuiltGraph:
    file: str
    inputs: list[TensorSpec]
    outputs: list[TensorSpec]
    nodes: int
    requires: list[str]
    # the decoder's routed experts in an int4 package
    routed_experts: ExpertLayout | None = None


def _kv_specs(prefix: str, layers: list[str], cfg: DecoderConfig, axis: str, float_name: str) -> list[TensorSpec]:
    return [TensorSpec(f"{prefix}_{kind}{layer}", float_name, (1, axis, cfg.num_key_value_heads, cfg.head_dim))
            for layer in layers for kind in ("key", "value")]


def _causal_bias(g: GraphWriter, past: str, x: str, dtype: type) -> str:
    """[1, 1, s, past + s]: 0 where new row i may see key j (j <= past + i), the type's lowest value
    elsewhere; shared by every layer."""
    past_len = g.op("Shape", [past], "bias.past", start=1, end=2)
    new_len = g.op("Shape", [x], "bias.new", start=1, end=2)
    total = g.op("Add", [past_len, new_len], "bias.total")
    zero, one = g.const("int64.0", np.array(0)), g.const("int64.1", np.array(1))
    scalar = g.const("axes.0", np.array([0]))
    rows = g.op("Range", [zero, g.op("Squeeze", [new_len, scalar], "bias.new_scalar"), one], "bias.rows")
    query = g.op("Add", [g.op("Unsqueeze", [rows, g.const("axes.1", np.array([1]))], "bias.rows_column"), past_len],
                 "bias.query")
    keys = g.op("Range", [zero, g.op("Squeeze", [total, scalar], "bias.total_scalar"), one], "bias.keys")
    hidden = g.op("Greater", [keys, query], "bias.after")
    blocked = g.const("bias.blocked", np.array(np.finfo(dtype).min, dtype=dtype))
    open_ = g.const("bias.open", np.array(0, dtype=dtype))
    bias = g.op("Where", [hidden, blocked, open_], "bias.where")
    return g.op("Unsqueeze", [bias, g.const("axes.01", np.array([0, 1]))], "bias")


def _routed_experts(layers: _Layers, x_flat: str, prefix: str) -> str:
    """The top-k experts of each token through `MoE` / `QMoE`: [tokens, hidden]."""
    g, w, cfg, p = layers.g, layers.w, layers.cfg, layers.p
    router = w.read(f"{prefix}.gate.weight")  # [experts, hidden]; softmax in float32 as the reference
    x32 = x_flat if p.float_type == TensorProto.FLOAT else g.op("Cast", [x_flat], f"{prefix}.router_in", to=TensorProto.FLOAT)
    logits = g.op("MatMul", [x32, g.weight(f"{prefix}.gate.weight", np.ascontiguousarray(router.T))], f"{prefix}.router")
    logits_t = logits if p.float_type == TensorProto.FLOAT else g.op("Cast", [logits], f"{prefix}.router_t", to=p.float_type)
    experts = range(cfg.n_routed_experts)

    def fc1(e: int) -> np.ndarray:  # rows interleaved: gate 0, up 0, gate 1, up 1, ...
        gate, up = (w.read(f"{prefix}.experts.{e}.{m}_proj.weight") for m in ("gate", "up"))
        return np.stack([gate, up], axis=1).reshape(2 * gate.shape[0], gate.shape[1])

    def fc2(e: int) -> np.ndarray:
        return w.read(f"{prefix}.experts.{e}.down_proj.weight")

    common = dict(k=cfg.num_experts_per_tok, activation_type="swiglu", swiglu_fusion=1, activation_alpha=1.0,
                  activation_beta=0.0, normalize_routing_weights=int(cfg.norm_topk_prob))
    if p.quantised:
        layout = expert_layout(p, cfg)
        q1, s1 = _stacked_quantised(g, f"{prefix}.experts.fc1", experts, fc1, layout, p)
        q2, s2 = _stacked_quantised(g, f"{prefix}.experts.fc2", experts, fc2, layout, p)
        blocks = {"block_size": layout.block_size} if layout.block_size else {}
        routed = g.op("QMoE", [x_flat, logits_t, q1, s1, "", q2, s2], f"{prefix}.qmoe", domain=CONTRIB_DOMAIN,
                      expert_weight_bits=layout.bits, **blocks, **common)
        if not cfg.norm_topk_prob:
            # ONNX Runtime 1.30's QMoE renormalises the top-k weights whatever
            # `normalize_routing_weights` says (CPU and WebGPU; its `router_weights` input, which
            # would avoid it, is not implemented on WebGPU), so undo it: scale each token's output
            # by the sum of its top-k probabilities.
            probs = g.op("Softmax", [logits], f"{prefix}.probs", axis=-1)
            top, _ = g.op("TopK", [probs, g.const("topk.k", np.array([cfg.num_experts_per_tok]))], f"{prefix}.topk",
                          outputs=2, axis=-1)
            mass = g.op("ReduceSum", [top, g.const("axes.last", np.array([-1]))], f"{prefix}.top_mass", keepdims=1)
            if p.float_type != TensorProto.FLOAT:
                mass = g.op("Cast", [mass], f"{prefix}.top_mass_t", to=p.float_type)
            routed = g.op("Mul", [routed, mass], f"{prefix}.unrenormalised")
    else:
        w1 = _stacked(g, f"{prefix}.experts.fc1", experts, fc1, w)
        w2 = _stacked(g, f"{prefix}.experts.fc2", experts, fc2, w)
        routed = g.op("MoE", [x_flat, logits_t, w1, "", w2], f"{prefix}.moe", domain=CONTRIB_DOMAIN, **common)
    if cfg.routed_scaling_factor != 1.0:
        scale = g.const(f"{prefix}.routed_scale", np.array(cfg.routed_scaling_factor, dtype=p.activation_dtype))
        routed = g.op("Mul", [routed, scale], f"{prefix}.routed_scaled")
    return routed


def _stacked(g: GraphWriter, name: str, experts: range, read: Callable[[int], np.ndarray], w: _Weights) -> str:
    """[experts, rows, cols] written expert by expert: one expert in memory at a time."""
    return g.weight_stream(name, [(lambda e=e: w.stored(f"{name}.{e}", read(e))) for e in experts])


def _stacked_quantised(g: GraphWriter, name: str, experts: range, read: Callable[[int], np.ndarray],
                       layout: ExpertLayout, p: Precision) -> tuple[str, str]:
    packed, scales = [], []
    for e in experts:
        weight = read(e)
        q = quantise(weight, layout.block_size or weight.shape[1], layout.bits, signed_scales=layout.signed)
        n = q.packed.shape[0]
        packed.append(q.packed.reshape(n, -1))
        # per column: QMoE takes the scales as [experts, rows]
        scales.append((q.scales if layout.block_size else q.scales[:, 0]).astype(p.activation_dtype))
    # the packed experts are a quarter (8 bits) or an eighth of their float32 size: a layer's worth fits
    return g.weight(f"{name}.qweight", np.stack(packed)), g.weight(f"{name}.scales", np.stack(scales))


def _joined_attention(g: GraphWriter, cfg: DecoderConfig, q: str, k: str, v: str, i: int, row_shape: str, bias: str,
                      heads: str, prefix: str) -> tuple[str, str, str]:
    """Layer i's attention over its past `[1, past, heads, dim]` joined to the new rows: the
    attended rows and the new key and value rows."""
    keys = g.op("Concat", [g.op("Reshape", [f"past_key.{i}", row_shape], f"{prefix}.past_keys"), k],
                f"{prefix}.keys", axis=1)
    values = g.op("Concat", [g.op("Reshape", [f"past_value.{i}", row_shape], f"{prefix}.past_values"), v],
                  f"{prefix}.values", axis=1)
    attended = g.op("MultiHeadAttention", [q, keys, values, "", "", bias], f"{prefix}.attention",
                    domain=CONTRIB_DOMAIN, num_heads=cfg.num_attention_heads)
    return attended, g.op("Reshape", [k, heads], f"{prefix}.present_key"), g.op("Reshape", [v, heads], f"{prefix}.present_value")


# How the decoder takes its past. `rows`: each layer's past `[1, past, heads, dim]`, joined to the
# new rows inside the graph (the layout the WebGPU path's resident cache appends to). `capacity`:
# each layer's cache at capacity as the MTP head takes it, read in place (`_capacity_attention`),
# with one `attention_bias` for every layer; for the CPU, where the join was a copy of the whole
# past per layer per step.
CACHE_LAYOUTS = ("rows", "capacity")


def build_decoder(reader: CheckpointReader, cfg: DecoderConfig, precision: Precision, out: Path,
                  cache_layout: str = "rows", file: str = "decoder.onnx", data: ExternalData | None = None) -> BuiltGraph:
    """The decoder graph `file` in `cache_layout`. `data`: the external data file its weights go to,
    shared with the package's other decoder graph (deduplicating, so each weight is written once);
    by default its own `<file>.data`."""
    if cfg.num_key_value_heads != cfg.num_attention_heads:
        raise ValueError(f"num_key_value_heads {cfg.num_key_value_heads} differs from num_attention_heads "
                         f"{cfg.num_attention_heads}; Folio's decoder graph supports plain multi-head attention only")
    if cache_layout not in CACHE_LAYOUTS:
        raise ValueError(f"cache layout {cache_layout!r} is not one of {', '.join(CACHE_LAYOUTS)}")
    g = GraphWriter(out / file, Path(file).stem, data)
    layers = _Layers(g, _Weights(reader, precision), cfg, precision)
    f, fname = precision.float_type, precision.float_name
    hidden = cfg.hidden_size
    names = [f".{i}" for i in range(cfg.num_hidden_layers)]
    capacity = cache_layout == "capacity"
    heads_count, dim = cfg.num_key_value_heads, cfg.head_dim
    past_specs = ([spec for name in names for spec in (TensorSpec(f"past_key{name}", fname, (1, heads_count, dim, "capacity")),
                                                        TensorSpec(f"past_value{name}", fname, (1, heads_count, "capacity", dim)))]
                  + [TensorSpec("attention_bias", fname, (1, 1, "sequence", "capacity_and_sequence"))]
                  if capacity else _kv_specs("past", names, cfg, "past", fname))
    inputs = [TensorSpec("inputs_embeds", fname, (1, "sequence", hidden)),
              TensorSpec("position_ids", "int64", (1, "sequence")),
              TensorSpec("num_logits", "int64", ()),
              *past_specs]
    outputs = [TensorSpec("logits", "float32", (1, "num_logits", cfg.vocab_size)),
               TensorSpec("hidden_states", fname, (1, "sequence", hidden)),
               *_kv_specs("present", names, cfg, "sequence", fname)]
    for spec in inputs:
        g.input(spec.name, _element_type(spec.dtype), spec.shape)
    x, positions = "inputs_embeds", "position_ids"
    bias = "attention_bias" if capacity else _causal_bias(g, "past_key.0", x, precision.activation_dtype)
    flat_shape = g.const("shape.flat", np.array([-1, hidden]))
    row_shape = g.const("shape.rows", np.array([1, -1, hidden]))
    heads = layers.heads_shape()
    pending: str | None = None  # the previous layer's MLP output, added to the residual by the next norm
    presents: list[str] = []
    for i in range(cfg.num_hidden_layers):
        prefix = f"model.layers.{i}"
        ln = f"{prefix}.input_layernorm.weight"
        if pending is None:
            normed = layers.norm(x, ln, f"{prefix}.input_layernorm")
        else:
            normed, x = layers.add_norm(pending, x, ln, f"{prefix}.input_layernorm")
        q, k, v = layers.qkv(normed, f"{prefix}.self_attn", positions)
        if capacity:
            attended, k_rows, v_rows = _capacity_attention(layers, q, k, v, f"past_key.{i}", f"past_value.{i}", bias,
                                                           f"{prefix}.self_attn")
        else:
            attended, k_rows, v_rows = _joined_attention(g, cfg, q, k, v, i, row_shape, bias, heads, prefix)
        presents += [k_rows, v_rows]
        attn_out = layers.linear(attended, reader.read(f"{prefix}.self_attn.o_proj.weight"), f"{prefix}.self_attn.o_proj")
        normed, x = layers.add_norm(attn_out, x, f"{prefix}.post_attention_layernorm.weight",
                                    f"{prefix}.post_attention_layernorm")
        if i < cfg.first_k_dense_replace:
            pending = layers.swiglu_mlp(normed, f"{prefix}.mlp")
        else:
            flat = g.op("Reshape", [normed, flat_shape], f"{prefix}.mlp.flat")
            routed = g.op("Reshape", [_routed_experts(layers, flat, f"{prefix}.mlp"), row_shape], f"{prefix}.mlp.routed")
            shared = layers.swiglu_mlp(normed, f"{prefix}.mlp.shared_experts")
            pending = g.op("Add", [routed, shared], f"{prefix}.mlp.sum")
    assert pending is not None
    final, _ = layers.add_norm(pending, x, "model.norm.weight", "model.norm")
    logits = layers.last_rows_logits(final, "num_logits", reader.read("lm_head.weight"), precision.quantised)
    g.output(logits, "logits", TensorProto.FLOAT, outputs[0].shape)
    g.output(final, "hidden_states", f, outputs[1].shape)
    for spec, value in zip(outputs[2:], presents):
        g.output(value, spec.name, f, spec.shape)
    g.finish()
    experts = expert_layout(precision, cfg) if precision.quantised and cfg.first_k_dense_replace < cfg.num_hidden_layers else None
    return BuiltGraph(file, inputs, outputs, g.node_count(), g.contrib_ops(), experts)


def build_embedding(reader: CheckpointReader, cfg: DecoderConfig, precision: Precision, out: Path) -> BuiltGraph:
    """A row lookup; the int4 package keeps its table in fp16 and widens only the rows it looks up."""
    g = GraphWriter(out / "embedding.onnx", "embedding")
    inputs = [TensorSpec("input_ids", "int64", (1, "sequence"))]
    outputs = [TensorSpec("inputs_embeds", precision.float_name, (1, "sequence", cfg.hidden_size))]
    g.input("input_ids", TensorProto.INT64, inputs[0].shape)
    name = "model.embed_tokens.weight"
    table = reader.read(name)
    if precision.quantised or precision.weight_dtype == np.float16:
        rows = g.op("Gather", [g.weight(name, half_weights(name, table)), "input_ids"], "embed")
        if precision.float_type == TensorProto.FLOAT:
            rows = g.op("Cast", [rows], "embed.float", to=TensorProto.FLOAT)
    else:
        rows = g.op("Gather", [g.weight(name, table), "input_ids"], "embed")
    del table
    g.output(rows, "inputs_embeds", precision.float_type, outputs[0].shape)
    g.finish()
    return BuiltGraph("embedding.onnx", inputs, outputs, g.node_count(), g.contrib_ops())


def _capacity_attention(layers: _Layers, q: str, k: str, v: str, past_key: str, past_value: str, bias: str,
                        block: str) -> tuple[str, str, str]:
    """Attention over a cache at capacity, read in place: keys `[1, heads, dim, capacity]` (already
    transposed for the scores), values `[1, heads, capacity, dim]`, the new rows' scores beside the
    past's and `bias` hiding the empty slots and later new rows. No pass copies the cache: joining
    it to the new rows (`Concat`) copied the whole past every step, about 1.8 ms per layer at 900
    rows and 10 ms at 4,400, against 0.15 and 2.3 ms for this (tools/bench/bench-kv-attention.mjs).
    Returns the attended rows `[1, s, hidden]` and the new key and value rows `[1, s, heads, dim]`."""
    g, precision = layers.g, layers.p
    dim, hidden = layers.cfg.head_dim, layers.cfg.hidden_size
    shape = layers.heads_shape()
    q_heads = g.op("Transpose", [g.op("Reshape", [q, shape], f"{block}.q_heads")], f"{block}.q_t", perm=[0, 2, 1, 3])
    k_heads = g.op("Transpose", [g.op("Reshape", [k, shape], f"{block}.k_heads")], f"{block}.k_t", perm=[0, 2, 3, 1])
    v_rows = g.op("Reshape", [v, shape], f"{block}.v_heads")
    v_heads = g.op("Transpose", [v_rows], f"{block}.v_t", perm=[0, 2, 1, 3])
    k_rows = g.op("Reshape", [k, shape], f"{block}.present_key")
    scores = g.op("Concat", [g.op("MatMul", [q_heads, past_key], f"{block}.scores_past"),
                             g.op("MatMul", [q_heads, k_heads], f"{block}.scores_new")], f"{block}.scores", axis=-1)
    scale = g.const(f"{block}.scale", np.array(dim ** -0.5, dtype=precision.activation_dtype))
    scores = g.op("Add", [g.op("Mul", [scores, scale], f"{block}.scaled"), bias], f"{block}.biased")
    probs = g.op("Softmax", [scores], f"{block}.probs", axis=-1)
    capacity = g.op("Shape", [past_key], f"{block}.capacity", start=3, end=4)
    axis = g.const("axes.3", np.array([3]))
    past_probs = g.op("Slice", [probs, g.const("int64.0s", np.array([0])), capacity, axis], f"{block}.probs_past")
    new_probs = g.op("Slice", [probs, capacity, g.const("int64.max", np.array([INT64_MAX])), axis], f"{block}.probs_new")
    attended = g.op("Add", [g.op("MatMul", [past_probs, past_value], f"{block}.out_past"),
                            g.op("MatMul", [new_probs, v_heads], f"{block}.out_new")], f"{block}.out")
    rows = g.op("Reshape", [g.op("Transpose", [attended], f"{block}.out_t", perm=[0, 2, 1, 3]),
                            g.const("shape.rows", np.array([1, -1, hidden]))], f"{block}.out_rows")
    return rows, k_rows, v_rows


def build_mtp(reader: CheckpointReader, cfg: DecoderConfig, precision: Precision, out: Path, head: int = 0) -> BuiltGraph:
    """The FastMTP head with its cache at capacity (as `graphs.CapacityAttention`). Its lm_head is a
    4-bit copy whatever the precision: drafts need not be exact (verification is), and a draft pass
    then reads a quarter of what a float32 lm_head costs."""
    g = GraphWriter(out / "mtp.onnx", "mtp")
    layers = _Layers(g, _Weights(reader, precision), cfg, precision)
    f, fname = precision.float_type, precision.float_name
    heads, dim, hidden = cfg.num_key_value_heads, cfg.head_dim, cfg.hidden_size
    inputs = [TensorSpec("inputs_embeds", fname, (1, "sequence", hidden)),
              TensorSpec("previous_hidden", fname, (1, "sequence", hidden)),
              TensorSpec("position_ids", "int64", (1, "sequence")),
              TensorSpec("num_logits", "int64", ()),
              TensorSpec("past_key", fname, (1, heads, dim, "capacity")),
              TensorSpec("past_value", fname, (1, heads, "capacity", dim)),
              TensorSpec("attention_bias", fname, (1, 1, "sequence", "capacity_and_sequence"))]
    outputs = [TensorSpec("logits", "float32", (1, "num_logits", cfg.vocab_size)),
               TensorSpec("hidden_states", fname, (1, "sequence", hidden)),
               *_kv_specs("present", [""], cfg, "sequence", fname)]
    for spec in inputs:
        g.input(spec.name, _element_type(spec.dtype), spec.shape)
    prefix = f"mtp_module.heads.{head}"
    block = f"{prefix}.mtp_block"
    embeds = layers.norm("inputs_embeds", f"{prefix}.enorm.weight", f"{prefix}.enorm")
    previous = layers.norm("previous_hidden", f"{prefix}.hnorm.weight", f"{prefix}.hnorm")
    joined = g.op("Concat", [embeds, previous], f"{prefix}.concat", axis=-1)
    x = layers.linear(joined, reader.read(f"{prefix}.eh_proj.weight"), f"{prefix}.eh_proj")
    normed = layers.norm(x, f"{block}.input_layernorm.weight", f"{block}.input_layernorm")
    q, k, v = layers.qkv(normed, f"{block}.self_attn", "position_ids")
    rows, k_rows, v_rows = _capacity_attention(layers, q, k, v, "past_key", "past_value", "attention_bias", block)
    attn_out = layers.linear(rows, reader.read(f"{block}.self_attn.o_proj.weight"), f"{block}.self_attn.o_proj")
    normed, x = layers.add_norm(attn_out, x, f"{block}.post_attention_layernorm.weight", f"{block}.post_attention_layernorm")
    mlp = layers.swiglu_mlp(normed, f"{block}.mlp")
    final, _ = layers.add_norm(mlp, x, "model.norm.weight", "model.norm")
    logits = layers.last_rows_logits(final, "num_logits", reader.read("lm_head.weight"), quantised=True)
    g.output(logits, "logits", TensorProto.FLOAT, outputs[0].shape)
    g.output(final, "hidden_states", f, outputs[1].shape)
    g.output(k_rows, "present_key", f, outputs[2].shape)
    g.output(v_rows, "present_value", f, outputs[3].shape)
    g.finish()
    return BuiltGraph("mtp.onnx", inputs, outputs, g.node_count(), g.contrib_ops())


def _element_type(dtype: str) -> int:
    return {"float32": TensorProto.FLOAT, "float16": TensorProto.FLOAT16, "int64": TensorProto.INT64}[dtype]
