"""Reference cases for the exported decoder and MTP graphs, computed by the PyTorch reference from a
checkpoint's decoder tensors alone (no vision, nothing held twice), for the runtime's parity tests:

    python3 -m folio_model.parity --checkpoint DIR --out CASE_DIR

Each case is a graph's inputs and the outputs the reference gives for them, as raw little-endian
arrays listed in `cases.json`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from torch import nn

from .checkpoint import read_config
from .checkpoint_reader import CheckpointReader
from .config import ModelConfig
from .decoder import DeepseekV2Model
from .graphs import CapacityAttention, VisionGraph
from .mtp import MTPModule
from .model import add_deep_encoder

SEED = 20261201
# what the reference registers as buffers rather than reads from the checkpoint
_DERIVED = ("vision_model.embeddings.position_ids",)


class _VisionParts(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        add_deep_encoder(self, cfg)


class VisionModel(nn.Module):
    """The DeepEncoder (SAM, CLIP, projector and the two layout embeddings) alone, as
    `graphs.VisionGraph` reads it of the full model: `config` and `model.<vision parts>`."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.model = _VisionParts(cfg)


def load_vision(reader: CheckpointReader, cfg: ModelConfig) -> VisionModel:
    """The vision encoder loaded from the checkpoint tensor by tensor, without the decoder."""
    vision = VisionModel(cfg).eval()
    with torch.no_grad():
        for name, tensor in [*vision.model.named_parameters(), *vision.model.named_buffers()]:
            if name in _DERIVED and f"model.{name}" not in reader.names():
                continue
            tensor.copy_(torch.from_numpy(reader.read(f"model.{name}")).to(tensor.dtype))
    return vision


class DecoderReference(nn.Module):
    """The checkpoint's decoder, lm_head and MTP head under their checkpoint names."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.model = DeepseekV2Model(cfg.decoder)
        self.lm_head = nn.Linear(cfg.decoder.hidden_size, cfg.decoder.vocab_size, bias=False)
        if cfg.num_mtp_heads:
            self.mtp_module = MTPModule(cfg.decoder, cfg.num_mtp_heads)


def load_decoder_reference(directory: Path) -> DecoderReference:
    """Parameters filled tensor by tensor from the shards, so memory holds the model once."""
    cfg = read_config(directory)
    reader = CheckpointReader(directory)
    model = DecoderReference(cfg).eval()
    with torch.no_grad():
        for name, param in model.named_parameters():
            param.copy_(torch.from_numpy(reader.read(name)))
    return model


def _save(out: Path, name: str, array: np.ndarray) -> dict:
    array = np.ascontiguousarray(array)
    kind = "int64" if array.dtype == np.int64 else "float32"
    file = f"{name}.{'i64' if kind == 'int64' else 'f32'}"
    (out / file).write_bytes(array.astype("<i8" if kind == "int64" else "<f4").tobytes())
    return {"file": file, "dtype": kind, "shape": list(array.shape)}


def decoder_cases(model: DecoderReference, out: Path, rng: np.random.Generator) -> list[dict]:
    """A prefill of 6 rows, then 3 rows over that past (a verify pass at K=2), for `decoder` (the past
    in rows) and `decoder_capacity` (the past at capacity)."""
    cfg = model.model.embed_tokens.weight.shape
    ids = torch.from_numpy(rng.integers(3, cfg[0], size=(1, 9)))
    cases = []
    with torch.no_grad():
        embeds = model.model.embed_tokens(ids)
        past = None
        for name, rows in (("prefill", slice(0, 6)), ("verify", slice(6, 9))):
            x = embeds[:, rows]
            positions = torch.arange(rows.start, rows.stop)[None]
            hidden, new = model.model(x, positions, past)
            logits = model.lm_head(hidden).float()
            tensors = {"inputs_embeds": _save(out, f"decoder.{name}.inputs_embeds", x.numpy()),
                       "position_ids": _save(out, f"decoder.{name}.position_ids", positions.numpy()),
                       "logits": _save(out, f"decoder.{name}.logits", logits.numpy()),
                       "hidden_states": _save(out, f"decoder.{name}.hidden_states", hidden.numpy())}
            for i, (k, v) in enumerate(new):
                tensors[f"present_key.{i}"] = _save(out, f"decoder.{name}.present_key.{i}", k.numpy())
                tensors[f"present_value.{i}"] = _save(out, f"decoder.{name}.present_value.{i}", v.numpy())
            if past is not None:
                for i, (k, v) in enumerate(past):
                    tensors[f"past_key.{i}"] = _save(out, f"decoder.{name}.past_key.{i}", k.numpy())
                    tensors[f"past_value.{i}"] = _save(out, f"decoder.{name}.past_value.{i}", v.numpy())
            outputs = {key: spec for key, spec in tensors.items() if not key.startswith("past_")}
            at_capacity = _past_at_capacity(past, new, rows.stop - rows.start, out, name, rng)
            past = new if past is None else [(torch.cat([p[0], n[0]], 1), torch.cat([p[1], n[1]], 1))
                                             for p, n in zip(past, new)]
            cases.append({"graph": "decoder", "name": name, "num_logits": rows.stop - rows.start, "tensors": tensors})
            cases.append({"graph": "decoder_capacity", "name": name, "num_logits": rows.stop - rows.start,
                          "tensors": {**outputs, **at_capacity}})
    return cases


def _past_at_capacity(past: list | None, new: list, rows: int, out: Path, name: str, rng: np.random.Generator,
                      capacity: int = 8) -> dict:
    """The same pass's past as `decoder_capacity` takes it: each layer's cache at `capacity` slots,
    keys transposed `[1, heads, dim, capacity]`, values `[1, heads, capacity, dim]`, junk in the empty
    slots (as a reused cache holds), and the bias that hides them and the later new rows."""
    length = 0 if past is None else past[0][0].shape[1]
    _, _, heads, dim = new[0][0].shape
    tensors = {}
    for i in range(len(new)):
        keys = rng.standard_normal((1, heads, dim, capacity)).astype(np.float32)
        values = rng.standard_normal((1, heads, capacity, dim)).astype(np.float32)
        if past is not None:
            keys[..., :length] = past[i][0][0].permute(1, 2, 0).numpy()
            values[:, :, :length] = past[i][1][0].transpose(0, 1).numpy()
        tensors[f"past_key.{i}"] = _save(out, f"decoder_capacity.{name}.past_key.{i}", keys)
        tensors[f"past_value.{i}"] = _save(out, f"decoder_capacity.{name}.past_value.{i}", values)
    bias = np.full((1, 1, rows, capacity + rows), np.finfo(np.float32).min, dtype=np.float32)
    bias[..., :length] = 0
    bias[..., capacity:] = np.where(np.triu(np.ones((rows, rows), dtype=bool), 1), np.finfo(np.float32).min, 0)
    tensors["attention_bias"] = _save(out, f"decoder_capacity.{name}.attention_bias", bias)
    return tensors


def mtp_cases(model: DecoderReference, out: Path, rng: np.random.Generator, capacity: int = 8) -> list[dict]:
    """Two head passes over a cache at capacity: 4 rows over an empty cache whose slots hold junk,
    then 2 rows over those 4."""
    head = model.mtp_module.heads[0]
    attention = CapacityAttention(head.mtp_block.self_attn)
    hidden_size = model.model.norm.weight.shape[0]
    heads, dim = head.mtp_block.self_attn.kv_heads, head.mtp_block.self_attn.head_dim
    vocab = model.model.embed_tokens.weight.shape[0]
    cases = []
    keys = torch.from_numpy(rng.standard_normal((1, heads, dim, capacity)).astype(np.float32))
    values = torch.from_numpy(rng.standard_normal((1, heads, capacity, dim)).astype(np.float32))
    length = 0
    with torch.no_grad():
        for name, rows in (("first", 4), ("second", 2)):
            ids = torch.from_numpy(rng.integers(3, vocab, size=(1, rows)))
            embeds = model.model.embed_tokens(ids)
            previous = torch.from_numpy(rng.standard_normal((1, rows, hidden_size)).astype(np.float32))
            positions = torch.arange(length, length + rows)[None]
            bias = torch.full((1, 1, rows, capacity + rows), float("-inf"))
            bias[..., :length] = 0
            bias[..., capacity:] = torch.triu(torch.full((rows, rows), float("-inf")), 1)
            x = head.eh_proj(torch.cat([head.enorm(embeds), head.hnorm(previous)], dim=-1))
            block = head.mtp_block
            attn, (k, v) = attention(block.input_layernorm(x), positions, (keys, values, bias))
            x = x + attn
            x = x + block.mlp(block.post_attention_layernorm(x))
            hidden = model.model.norm(x)
            logits = model.lm_head(hidden).float()
            tensors = {"inputs_embeds": _save(out, f"mtp.{name}.inputs_embeds", embeds.numpy()),
                       "previous_hidden": _save(out, f"mtp.{name}.previous_hidden", previous.numpy()),
                       "position_ids": _save(out, f"mtp.{name}.position_ids", positions.numpy()),
                       "past_key": _save(out, f"mtp.{name}.past_key", keys.numpy()),
                       "past_value": _save(out, f"mtp.{name}.past_value", values.numpy()),
                       "attention_bias": _save(out, f"mtp.{name}.attention_bias",
                                               np.maximum(bias.numpy(), np.finfo(np.float32).min)),
                       "logits": _save(out, f"mtp.{name}.logits", logits.numpy()),
                       "hidden_states": _save(out, f"mtp.{name}.hidden_states", hidden.numpy()),
                       "present_key": _save(out, f"mtp.{name}.present_key", k.numpy()),
                       "present_value": _save(out, f"mtp.{name}.present_value", v.numpy())}
            keys = keys.clone()
            values = values.clone()
            keys[..., length:length + rows] = k[0].permute(1, 2, 0)[None]
            values[:, :, length:length + rows] = v[0].transpose(0, 1)[None]
            length += rows
            cases.append({"graph": "mtp", "name": name, "num_logits": rows, "tensors": tensors})
    return cases


def vision_case(checkpoint: Path, size: int, out: Path, rng: np.random.Generator) -> dict:
    """One view of random pixels through the vision graph's reference."""
    graph = VisionGraph(load_vision(CheckpointReader(checkpoint), read_config(checkpoint)), size, in_place=True)
    pixels = torch.from_numpy(rng.uniform(-1, 1, size=(1, 3, size, size)).astype(np.float32))
    with torch.no_grad():
        features, newline, separator = graph(pixels)
    name = f"vision_{size}"
    return {"graph": name, "name": "random view", "tensors": {
        "pixel_values": _save(out, f"{name}.pixel_values", pixels.numpy()),
        "features": _save(out, f"{name}.features", features.numpy()),
        "image_newline": _save(out, f"{name}.image_newline", newline.numpy()),
        "view_seperator": _save(out, f"{name}.view_seperator", separator.numpy())}}


def write_cases(checkpoint: Path, out: Path, view_sizes: tuple[int, ...] = ()) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    cases = [vision_case(checkpoint, size, out, rng) for size in view_sizes]
    model = load_decoder_reference(checkpoint)
    cases += decoder_cases(model, out, rng)
    if hasattr(model, "mtp_module"):
        cases += mtp_cases(model, out, rng)
    path = out / "cases.json"
    path.write_text(json.dumps({"checkpoint": str(checkpoint), "cases": cases}, indent=1) + "\n")
    return path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--view-sizes", default="", help="comma-separated vision graph sizes to add cases for")
    args = parser.parse_args(argv)
    sizes = tuple(int(s) for s in args.view_sizes.split(",") if s)
    print(f"parity: wrote {write_cases(args.checkpoint, args.out, sizes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
