"""The modules Folio exports, one per ONNX graph, with the package's input/output names.

Each wrapper fixes what ONNX cannot express plainly: the vision graph carries position tables
already resized to its view size (bicubic with antialias has no opset-17 equivalent), and the
decoder and MTP graphs take and return flat key/value lists, and the MTP graph takes its cache
whole, at its capacity, in the layout its attention reads (`CapacityAttention`).
"""
from __future__ import annotations

import copy

import torch
from torch import nn

from .clip import resize_positions
from .decoder import Attention, KeyValue
from .model import DeepseekOCRForCausalLM
from .sam import resize_abs_pos, resize_rel_pos


def last_rows(hidden: torch.Tensor, count: torch.Tensor) -> torch.Tensor:
    """The last `count` positions of `[1, s, H]`; `count` a 0-d int64 tensor kept dynamic in ONNX."""
    index = torch.arange(count, dtype=torch.int64) + (hidden.shape[1] - count)
    return hidden.index_select(1, index)


class VisionGraph(nn.Module):
    """pixel_values `[n, 3, S, S]` -> features `[n, (S/64)^2, H]`, plus the two layout embeddings."""

    def __init__(self, model: DeepseekOCRForCausalLM, size: int, in_place: bool = False) -> None:
        """`in_place` resizes the model's own position tables instead of a copy's (an export that
        loads the vision weights afresh for each view size, so they are never held twice)."""
        super().__init__()
        inner = model.model
        self.sam = inner.sam_model if in_place else copy.deepcopy(inner.sam_model)
        self.clip = inner.vision_model if in_place else copy.deepcopy(inner.vision_model)
        self.projector = inner.projector
        # not named as the graph's outputs are, which would make the tracer rename one or the other
        self.newline_embedding = inner.image_newline
        self.separator_embedding = inner.view_seperator
        grid = size // model.config.sam.patch_size
        with torch.no_grad():
            self.sam.pos_embed = nn.Parameter(resize_abs_pos(self.sam.pos_embed, grid))
            for block in self.sam.blocks:
                side = block.window or grid
                block.attn.rel_pos_h = nn.Parameter(resize_rel_pos(block.attn.rel_pos_h, 2 * side - 1))
                block.attn.rel_pos_w = nn.Parameter(resize_rel_pos(block.attn.rel_pos_w, 2 * side - 1))
            compressed = (grid + 1) // 2
            compressed = (compressed + 1) // 2  # SAM's two stride-2 convolutions
            table = self.clip.embeddings.position_embedding.weight
            self.clip.embeddings.position_embedding = nn.Embedding.from_pretrained(
                resize_positions(table, compressed * compressed + 1), freeze=True)

    def forward(self, pixel_values: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        sam_maps = self.sam(pixel_values)
        clip_tokens = self.clip(sam_maps)
        fused = torch.cat([clip_tokens[:, 1:], sam_maps.flatten(2).transpose(1, 2)], dim=-1)
        return self.projector(fused), self.newline_embedding * 1.0, self.separator_embedding * 1.0


class EmbeddingGraph(nn.Module):
    def __init__(self, model: DeepseekOCRForCausalLM) -> None:
        super().__init__()
        self.embed_tokens = model.model.embed_tokens

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        return self.embed_tokens(input_ids)


class DecoderGraph(nn.Module):
    """(inputs_embeds, position_ids, num_logits, past_key.0, past_value.0, ...) ->
    (logits, hidden_states, present_key.0, present_value.0, ...)."""

    def __init__(self, model: DeepseekOCRForCausalLM) -> None:
        super().__init__()
        self.layers = model.model.layers
        self.norm = model.model.norm
        self.lm_head = model.lm_head

    def forward(self, inputs_embeds: torch.Tensor, position_ids: torch.Tensor, num_logits: torch.Tensor,
                *past_flat: torch.Tensor) -> tuple[torch.Tensor, ...]:
        x, new_rows = inputs_embeds, []
        for i, layer in enumerate(self.layers):
            past = (past_flat[2 * i], past_flat[2 * i + 1]) if past_flat else None
            x, new = layer(x, position_ids, past)
            new_rows += new
        hidden = self.norm(x)
        logits = self.lm_head(last_rows(hidden, num_logits)).float()
        return (logits, hidden, *new_rows)


class CapacityAttention(nn.Module):
    """`Attention` over caches handed over whole at their capacity, one per lane (a page of a packed
    pass): keys `[lanes, kv_heads, dim, capacity]` (already transposed for the scores), values
    `[lanes, kv_heads, capacity, dim]`, the rows lane by lane in equal groups (`[1, lanes * R,
    hidden]`), and a bias `[lanes, 1, R, capacity + R]`, 0 where a query may look (a cached row of
    its lane, then its own and earlier new rows of its group) and -inf elsewhere. Each group attends
    to its own lane only, so a pass of N pages reads each lane's slots once, not once per row. The new
    rows are attended to beside the cache rather than appended to it, so no pass copies the cache:
    concatenating and transposing it cost a small head's CPU pass more than its arithmetic, and
    more as the page grew. One sequence is `lanes` = 1. Returns the new rows `[1, rows, kv_heads,
    dim]` like `Attention`."""

    def __init__(self, attention: Attention) -> None:
        super().__init__()
        self.attention = attention

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor,
                past: tuple[torch.Tensor, torch.Tensor, torch.Tensor]) -> tuple[torch.Tensor, KeyValue]:
        a = self.attention
        past_keys, past_values, bias = past
        b, s, _ = x.shape
        lanes = past_keys.shape[0]
        q, k, v = a.rotated_qkv(x, position_ids)
        group = a.heads // a.kv_heads
        qt = q.reshape(lanes, -1, a.heads, a.head_dim).transpose(1, 2)
        new_keys = k.reshape(lanes, -1, a.kv_heads, a.head_dim).permute(0, 2, 3, 1)
        new_values = v.reshape(lanes, -1, a.kv_heads, a.head_dim).transpose(1, 2)
        if group > 1:
            past_keys, past_values, new_keys, new_values = (
                t.repeat_interleave(group, dim=1) for t in (past_keys, past_values, new_keys, new_values))
        scores = torch.cat([qt @ past_keys, qt @ new_keys], dim=-1) * (a.head_dim ** -0.5) + bias
        probs = scores.float().softmax(-1).to(v.dtype)
        capacity = past_keys.shape[-1]
        out = probs[..., :capacity] @ past_values + probs[..., capacity:] @ new_values
        return a.o_proj(out.transpose(1, 2).reshape(b, s, -1)), (k, v)


class CapacityDecoderGraph(nn.Module):
    """(inputs_embeds, position_ids, num_logits, past_key.0, past_value.0, ..., attention_bias) ->
    (logits, hidden_states, present_key.0, present_value.0, ...): the decoder with each layer's cache
    at capacity as `CapacityAttention` takes it and one bias for every layer (the exporter's
    `decoder_capacity`, which the CPU runs). The bias says which slots and new rows each new row sees,
    so rows of several sequences can share one pass, each over its own region of the caches."""

    def __init__(self, model: DeepseekOCRForCausalLM) -> None:
        super().__init__()
        self.layers = copy.deepcopy(model.model.layers)
        for layer in self.layers:
            layer.self_attn = CapacityAttention(layer.self_attn)
        self.norm = model.model.norm
        self.lm_head = model.lm_head

    def forward(self, inputs_embeds: torch.Tensor, position_ids: torch.Tensor, num_logits: torch.Tensor,
                *past_and_bias: torch.Tensor) -> tuple[torch.Tensor, ...]:
        *past_flat, bias = past_and_bias
        x, new_rows = inputs_embeds, []
        for i, layer in enumerate(self.layers):
            x, new = layer(x, position_ids, (past_flat[2 * i], past_flat[2 * i + 1], bias))
            new_rows += new
        hidden = self.norm(x)
        logits = self.lm_head(last_rows(hidden, num_logits)).float()
        return (logits, hidden, *new_rows)


class MTPGraph(nn.Module):
    """(inputs_embeds, previous_hidden, position_ids, num_logits, past_key, past_value, attention_bias)
    -> (logits, hidden_states, present_key, present_value), the cache as `CapacityAttention` takes it."""

    def __init__(self, model: DeepseekOCRForCausalLM, head: int = 0) -> None:
        super().__init__()
        self.head = copy.deepcopy(model.mtp_module.heads[head])
        self.head.mtp_block.self_attn = CapacityAttention(self.head.mtp_block.self_attn)
        self.norm = model.model.norm
        self.lm_head = model.lm_head

    def forward(self, inputs_embeds: torch.Tensor, previous_hidden: torch.Tensor, position_ids: torch.Tensor,
                num_logits: torch.Tensor, past_key: torch.Tensor, past_value: torch.Tensor,
                attention_bias: torch.Tensor) -> tuple[torch.Tensor, ...]:
        hidden, (key, value) = self.head(inputs_embeds, previous_hidden, position_ids, self.norm,
                                         (past_key, past_value, attention_bias))
        logits = self.lm_head(last_rows(hidden, num_logits)).float()
        return logits, hidden, key, value
