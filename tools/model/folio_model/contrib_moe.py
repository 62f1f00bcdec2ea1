"""The routed experts as ONNX Runtime's `com.microsoft.MoE` contrib op, for the optional decoder
graph that runs only the top-k experts of each token (the plain graph runs all of them).

The op takes router logits and does softmax, top-k and (optionally) renormalisation itself; with
`activation_type=swiglu`, `swiglu_fusion=1`, alpha 1 and beta 0 its activation is SiLU(gate) * up
over an FC1 whose rows interleave gate and up. Shared experts stay plain ops beside it.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.onnx.symbolic_opset9 import unused

from .decoder import DeepseekV2DecoderLayer, DeepseekV2MoE, KeyValue

DOMAIN = "com.microsoft"


class _MoEOp(torch.autograd.Function):
    """Runs the dense reference when traced; exports as one MoE node."""

    @staticmethod
    def forward(ctx, x: torch.Tensor, router_logits: torch.Tensor, fc1: torch.Tensor, fc2: torch.Tensor,
                k: int, renormalise: bool) -> torch.Tensor:  # type: ignore[override]
        scores = router_logits.float().softmax(-1)
        weights, index = torch.topk(scores, k, dim=-1)
        if renormalise:
            weights = weights / weights.sum(-1, keepdim=True)
        dense = torch.zeros_like(scores).scatter(1, index, weights).to(x.dtype)
        gate_up = torch.einsum("th,eih->tei", x, fc1)
        hidden = F.silu(gate_up[..., 0::2]) * gate_up[..., 1::2]
        return torch.einsum("tei,ehi,te->th", hidden, fc2, dense)

    @staticmethod
    def symbolic(g, x, router_logits, fc1, fc2, k, renormalise):  # noqa: ANN001 - exporter's graph values
        return g.op(f"{DOMAIN}::MoE", x, router_logits, fc1, unused(g), fc2, k_i=k,
                    activation_type_s="swiglu", swiglu_fusion_i=1, activation_alpha_f=1.0, activation_beta_f=0.0,
                    normalize_routing_weights_i=int(renormalise))


class ContribMoE(nn.Module):
    def __init__(self, moe: DeepseekV2MoE) -> None:
        super().__init__()
        self.gate = moe.gate
        self.shared_experts = moe.shared_experts
        with torch.no_grad():
            gate = torch.stack([e.gate_proj.weight for e in moe.experts])  # [E, I, H]
            up = torch.stack([e.up_proj.weight for e in moe.experts])
            fc1 = torch.stack([gate, up], dim=2).reshape(gate.shape[0], 2 * gate.shape[1], gate.shape[2])
            self.register_buffer("fc1", fc1)  # rows interleaved: gate 0, up 0, gate 1, up 1, ...
            self.register_buffer("fc2", torch.stack([e.down_proj.weight for e in moe.experts]))  # [E, H, I]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        router_logits = F.linear(flat.float(), self.gate.weight.float()).to(x.dtype)
        routed = _MoEOp.apply(flat, router_logits, self.fc1, self.fc2, self.gate.top_k, self.gate.renormalise)
        return (self.shared_experts(flat) + self.gate.scale * routed).reshape(shape)


class ContribMoELayer(nn.Module):
    """A decoder layer whose MoE runs through the contrib op; attention and norms are the layer's own."""

    def __init__(self, layer: DeepseekV2DecoderLayer) -> None:
        super().__init__()
        self.layer = layer
        self.moe = ContribMoE(layer.mlp) if isinstance(layer.mlp, DeepseekV2MoE) else None

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor,
                past: KeyValue | None) -> tuple[torch.Tensor, KeyValue]:
        if self.moe is None:
            return self.layer(x, position_ids, past)
        attn, new = self.layer.self_attn(self.layer.input_layernorm(x), position_ids, past)
        x = x + attn
        return x + self.moe(self.layer.post_attention_layernorm(x)), new
