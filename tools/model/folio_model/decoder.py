"""DeepSeek-V2 decoder as DeepSeek-OCR configures it: plain multi-head attention (no MLA) with
rotate-half RoPE, a dense MLP in the first `first_k_dense_replace` layers, and MoE elsewhere
(softmax router, top-k, weights not renormalised unless the config says so, plus shared experts).

Attribute names follow the checkpoint (`model.layers.*`, `model.embed_tokens`, `model.norm`).
The cache layout is Folio's runtime layout: keys/values `[1, past, heads, dim]`, and every forward
returns only the rows it added, so the runtime owns the cache.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .config import DecoderConfig

KeyValue = tuple[torch.Tensor, torch.Tensor]


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dtype = x.dtype
        x = x.float()
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x.to(dtype)


def rope_tables(position_ids: torch.Tensor, head_dim: int, theta: float) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin `[b, s, 1, head_dim]` for rotate-half RoPE at the given positions."""
    inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
    freqs = position_ids.float().unsqueeze(-1) * inv_freq
    angles = torch.cat([freqs, freqs], dim=-1).unsqueeze(2)
    return angles.cos(), angles.sin()


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return (x.float() * cos + rotated.float() * sin).to(x.dtype)


def causal_bias(new: int | torch.Tensor, past: int | torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """`[new, past + new]`: 0 where the key is visible to the query, -inf after it."""
    query = torch.arange(new).unsqueeze(1) + past
    key = torch.arange(past + new).unsqueeze(0)
    hidden = torch.full((1,), float("-inf"), dtype=dtype)
    return torch.where(key > query, hidden, torch.zeros((1,), dtype=dtype))


class Attention(nn.Module):
    def __init__(self, cfg: DecoderConfig) -> None:
        super().__init__()
        self.heads = cfg.num_attention_heads
        self.kv_heads = cfg.num_key_value_heads
        self.head_dim = cfg.head_dim
        self.theta = cfg.rope_theta
        self.q_proj = nn.Linear(cfg.hidden_size, self.heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(cfg.hidden_size, self.kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(self.heads * self.head_dim, cfg.hidden_size, bias=False)

    def rotated_qkv(self, x: torch.Tensor, position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """q `[b, s, heads, dim]`, k and v `[b, s, kv_heads, dim]`, RoPE applied to q and k."""
        b, s, _ = x.shape
        q = self.q_proj(x).reshape(b, s, self.heads, self.head_dim)
        k = self.k_proj(x).reshape(b, s, self.kv_heads, self.head_dim)
        v = self.v_proj(x).reshape(b, s, self.kv_heads, self.head_dim)
        cos, sin = rope_tables(position_ids, self.head_dim, self.theta)
        return apply_rope(q, cos, sin), apply_rope(k, cos, sin), v

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor,
                past: KeyValue | None) -> tuple[torch.Tensor, KeyValue]:
        b, s, _ = x.shape
        q, k, v = self.rotated_qkv(x, position_ids)
        keys, values = (k, v) if past is None else (torch.cat([past[0], k], 1), torch.cat([past[1], v], 1))
        past_len = keys.shape[1] - s
        group = self.heads // self.kv_heads
        kt = keys.transpose(1, 2).repeat_interleave(group, dim=1) if group > 1 else keys.transpose(1, 2)
        vt = values.transpose(1, 2).repeat_interleave(group, dim=1) if group > 1 else values.transpose(1, 2)
        scores = (q.transpose(1, 2) @ kt.transpose(-2, -1)) * (self.head_dim ** -0.5)
        scores = scores + causal_bias(s, past_len, scores.dtype)
        out = (scores.float().softmax(-1).to(vt.dtype) @ vt).transpose(1, 2).reshape(b, s, -1)
        return self.o_proj(out), (k, v)


class DeepseekV2MLP(nn.Module):
    def __init__(self, hidden: int, intermediate: int) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = nn.Linear(intermediate, hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class MoEGate(nn.Module):
    def __init__(self, cfg: DecoderConfig) -> None:
        super().__init__()
        self.top_k = cfg.num_experts_per_tok
        self.renormalise = cfg.norm_topk_prob
        self.scale = cfg.routed_scaling_factor
        self.weight = nn.Parameter(torch.zeros(cfg.n_routed_experts, cfg.hidden_size))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Dense routing weights `[tokens, experts]`: zero outside each token's top-k."""
        scores = F.linear(x.float(), self.weight.float()).softmax(-1)
        weights, index = torch.topk(scores, self.top_k, dim=-1)
        if self.renormalise:
            weights = weights / weights.sum(-1, keepdim=True)
        return torch.zeros_like(scores).scatter(1, index, weights * self.scale)


class DeepseekV2MoE(nn.Module):
    def __init__(self, cfg: DecoderConfig) -> None:
        super().__init__()
        self.gate = MoEGate(cfg)
        self.experts = nn.ModuleList(
            DeepseekV2MLP(cfg.hidden_size, cfg.moe_intermediate_size) for _ in range(cfg.n_routed_experts)
        )
        self.shared_experts = DeepseekV2MLP(cfg.hidden_size, cfg.moe_intermediate_size * cfg.n_shared_experts)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        routing = self.gate(flat).to(x.dtype)
        # every expert runs on every token and unrouted ones are weighted 0: exact, and plain ONNX
        out = self.shared_experts(flat)
        for e, expert in enumerate(self.experts):
            out = out + routing[:, e:e + 1] * expert(flat)
        return out.reshape(shape)


class DeepseekV2DecoderLayer(nn.Module):
    def __init__(self, cfg: DecoderConfig, dense: bool) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = DeepseekV2MLP(cfg.hidden_size, cfg.intermediate_size) if dense else DeepseekV2MoE(cfg)

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor,
                past: KeyValue | None) -> tuple[torch.Tensor, KeyValue]:
        attn, new = self.self_attn(self.input_layernorm(x), position_ids, past)
        x = x + attn
        return x + self.mlp(self.post_attention_layernorm(x)), new


class DeepseekV2Model(nn.Module):
    def __init__(self, cfg: DecoderConfig) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList(DeepseekV2DecoderLayer(cfg, i < cfg.first_k_dense_replace) for i in range(cfg.num_hidden_layers))
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)

    def forward(self, inputs_embeds: torch.Tensor, position_ids: torch.Tensor,
                past: list[KeyValue] | None = None) -> tuple[torch.Tensor, list[KeyValue]]:
        """Post-norm hidden states `[b, s, hidden]` and each layer's new key/value rows."""
        x, new_rows = inputs_embeds, []
        for i, layer in enumerate(self.layers):
            x, new = layer(x, position_ids, None if past is None else past[i])
            new_rows.append(new)
        return self.norm(x), new_rows
