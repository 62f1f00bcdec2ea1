"""Writes a Folio model package from a loaded reference model, traced: the ONNX graphs, tokenizer.json
and manifest.json (sizes, token ids, prompt, resolution modes, graph I/O, file hashes, licence). It
writes the test models' packages (fixtures/tiny*, fixtures/nano: plain graphs whose MoE runs every
expert, which every execution provider runs); real checkpoints are exported by Folio itself (`folio
export-model`, electron/engine/model-export/)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import onnx
import torch

from .config import ModelConfig
from .graphs import CapacityDecoderGraph, DecoderGraph, EmbeddingGraph, MTPGraph, VisionGraph
from .model import DeepseekOCRForCausalLM
from .onnx_export import TensorSpec, export_graph
from .preprocess import ResolutionMode, candidate_grids

FORMAT = "folio-model-package"
# 2: the MTP graph takes its cache at its capacity, keys transposed, with an attention bias
FORMAT_VERSION = 2
PLAIN_PROMPT = "<image>\n<|grounding|>Convert the document to markdown."
SPECIAL_TOKENS = ("<image>", "<|ref|>", "<|/ref|>", "<|det|>", "<|/det|>", "<|grounding|>",
                  "<td>", "</td>", "<tr>", "</tr>", "<|User|>", "<|Assistant|>")


@dataclass(frozen=True)
class DecodingRule:
    ngram_size: int
    window: int
    exempt_tokens: tuple[str, ...] = ("<td>", "</td>")


@dataclass(frozen=True)
class PackageOptions:
    half: bool
    modes: tuple[ResolutionMode, ...]
    decoding: DecodingRule
    licence: str
    name: str
    # also `decoder_capacity` (the tiny packages, so that the CPU runs and packs pages as a real package does)
    capacity_decoder: bool = False


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def special_token_ids(tokenizer: dict) -> dict[str, int]:
    added = {t["content"]: t["id"] for t in tokenizer.get("added_tokens", [])}
    vocab = tokenizer.get("model", {}).get("vocab", {})
    ids = {}
    for token in SPECIAL_TOKENS:
        if token in added:
            ids[token] = added[token]
        elif token in vocab:
            ids[token] = vocab[token]
    if "<image>" not in ids:
        raise ValueError("tokenizer.json has no <image> token; this is not a DeepSeek-OCR tokenizer")
    return ids


def read_licence(checkpoint: Path) -> str | None:
    """The `license:` field of the model card's front matter, as Hugging Face publishes it."""
    card = checkpoint / "README.md"
    if not card.exists():
        return None
    match = re.search(r"^license:\s*(\S+)", card.read_text(errors="replace"), re.MULTILINE)
    return match.group(1) if match else None


def prompt_template(checkpoint: Path) -> dict[str, str]:
    template = checkpoint / "chat_template.jinja"
    if template.exists():
        return {"kind": "chat_template", "template": template.read_text()}
    return {"kind": "plain", "template": PLAIN_PROMPT, "bos": "prepend"}


def view_sizes(modes: tuple[ResolutionMode, ...]) -> list[int]:
    return sorted({m.base_size for m in modes} | {m.image_size for m in modes if m.crop})


def _float(half: bool) -> str:
    return "float16" if half else "float32"


def _export_vision(model: DeepseekOCRForCausalLM, size: int, out: Path, half: bool) -> dict:
    hidden = model.config.decoder.hidden_size
    side = size // model.config.sam.patch_size // 4
    inputs = [TensorSpec("pixel_values", _float(half), ("views", 3, size, size))]
    outputs = [TensorSpec("features", _float(half), ("views", side * side, hidden)),
               TensorSpec("image_newline", _float(half), (hidden,)),
               TensorSpec("view_seperator", _float(half), (hidden,))]
    file = f"vision_{size}.onnx"
    export_graph(VisionGraph(model, size), (torch.zeros(2, 3, size, size),), out / file, inputs, outputs, half)
    return {"file": file, "view_size": size, "grid": side, "inputs": inputs, "outputs": outputs}


def _kv_specs(prefix: str, layers: list[str], heads: int, dim: int, axis: str, half: bool) -> list[TensorSpec]:
    return [TensorSpec(f"{prefix}_{kind}{layer}", _float(half), (1, axis, heads, dim))
            for layer in layers for kind in ("key", "value")]


def _export_decoder(model: DeepseekOCRForCausalLM, out: Path, half: bool) -> dict:
    cfg = model.config.decoder
    layers = [f".{i}" for i in range(cfg.num_hidden_layers)]
    heads, dim, hidden = cfg.num_key_value_heads, cfg.head_dim, cfg.hidden_size
    inputs = [TensorSpec("inputs_embeds", _float(half), (1, "sequence", hidden)),
              TensorSpec("position_ids", "int64", (1, "sequence")),
              TensorSpec("num_logits", "int64", ()),
              *_kv_specs("past", layers, heads, dim, "past", half)]
    outputs = [TensorSpec("logits", "float32", (1, "num_logits", cfg.vocab_size)),
               TensorSpec("hidden_states", _float(half), (1, "sequence", hidden)),
               *_kv_specs("present", layers, heads, dim, "sequence", half)]
    example = (torch.zeros(1, 2, hidden), torch.tensor([[3, 4]]), torch.tensor(1),
               *[torch.zeros(1, 3, heads, dim) for _ in range(2 * len(layers))])
    export_graph(DecoderGraph(model), example, out / "decoder.onnx", inputs, outputs, half)
    return {"file": "decoder.onnx", "inputs": inputs, "outputs": outputs}


def _export_capacity_decoder(model: DeepseekOCRForCausalLM, out: Path, half: bool) -> dict:
    """The decoder with its caches at capacity (graphs.CapacityDecoderGraph), as `folio export-model`
    writes `decoder_capacity`: what the runtime runs on the CPU, and what packs several pages' rows
    into one pass."""
    cfg = model.config.decoder
    layers = [f".{i}" for i in range(cfg.num_hidden_layers)]
    heads, dim, hidden = cfg.num_key_value_heads, cfg.head_dim, cfg.hidden_size
    inputs = [TensorSpec("inputs_embeds", _float(half), (1, "sequence", hidden)),
              TensorSpec("position_ids", "int64", (1, "sequence")),
              TensorSpec("num_logits", "int64", ()),
              *[spec for layer in layers for spec in (
                  TensorSpec(f"past_key{layer}", _float(half), ("lanes", heads, dim, "capacity")),
                  TensorSpec(f"past_value{layer}", _float(half), ("lanes", heads, "capacity", dim)))],
              TensorSpec("attention_bias", _float(half), ("lanes", 1, "lane_sequence", "capacity_and_lane_sequence"))]
    outputs = [TensorSpec("logits", "float32", (1, "num_logits", cfg.vocab_size)),
               TensorSpec("hidden_states", _float(half), (1, "sequence", hidden)),
               *_kv_specs("present", layers, heads, dim, "sequence", half)]
    # two lanes of one row each, so that the trace keeps the lanes as an axis
    past = [t for _ in layers for t in (torch.zeros(2, heads, dim, 5), torch.zeros(2, heads, 5, dim))]
    example = (torch.zeros(1, 2, hidden), torch.tensor([[3, 4]]), torch.tensor(1), *past, torch.zeros(2, 1, 1, 6))
    export_graph(CapacityDecoderGraph(model), example, out / "decoder_capacity.onnx", inputs, outputs, half)
    return {"file": "decoder_capacity.onnx", "inputs": inputs, "outputs": outputs}


def _export_embedding(model: DeepseekOCRForCausalLM, out: Path, half: bool) -> dict:
    hidden = model.config.decoder.hidden_size
    inputs = [TensorSpec("input_ids", "int64", (1, "sequence"))]
    outputs = [TensorSpec("inputs_embeds", _float(half), (1, "sequence", hidden))]
    export_graph(EmbeddingGraph(model), (torch.tensor([[0, 1]]),), out / "embedding.onnx", inputs, outputs, half)
    return {"file": "embedding.onnx", "inputs": inputs, "outputs": outputs}


def _export_mtp(model: DeepseekOCRForCausalLM, out: Path, half: bool) -> dict:
    cfg = model.config.decoder
    heads, dim, hidden = cfg.num_key_value_heads, cfg.head_dim, cfg.hidden_size
    # the cache whole, at its capacity, laid out for the head's attention (graphs.CapacityAttention)
    inputs = [TensorSpec("inputs_embeds", _float(half), (1, "sequence", hidden)),
              TensorSpec("previous_hidden", _float(half), (1, "sequence", hidden)),
              TensorSpec("position_ids", "int64", (1, "sequence")),
              TensorSpec("num_logits", "int64", ()),
              TensorSpec("past_key", _float(half), ("lanes", heads, dim, "capacity")),
              TensorSpec("past_value", _float(half), ("lanes", heads, "capacity", dim)),
              TensorSpec("attention_bias", _float(half), ("lanes", 1, "lane_sequence", "capacity_and_lane_sequence"))]
    outputs = [TensorSpec("logits", "float32", (1, "num_logits", cfg.vocab_size)),
               TensorSpec("hidden_states", _float(half), (1, "sequence", hidden)),
               *_kv_specs("present", [""], heads, dim, "sequence", half)]
    example = (torch.zeros(1, 2, hidden), torch.zeros(1, 2, hidden), torch.tensor([[3, 4]]), torch.tensor(1),
               torch.zeros(2, heads, dim, 5), torch.zeros(2, heads, 5, dim), torch.zeros(2, 1, 1, 6))
    export_graph(MTPGraph(model), example, out / "mtp.onnx", inputs, outputs, half)
    return {"file": "mtp.onnx", "inputs": inputs, "outputs": outputs}


def external_files(graph: Path) -> set[str]:
    """The external data files a graph's initialisers live in."""
    model = onnx.load(str(graph), load_external_data=False)
    return {entry.value for tensor in model.graph.initializer for entry in tensor.external_data if entry.key == "location"}


def _graph_json(graph: dict) -> dict:
    return {k: ([s.to_json() for s in v] if k in ("inputs", "outputs") else v) for k, v in graph.items()}


def write_package(model: DeepseekOCRForCausalLM, checkpoint: Path, out: Path, options: PackageOptions) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    tokenizer_path = checkpoint / "tokenizer.json"
    if not tokenizer_path.exists():
        raise FileNotFoundError(f"{tokenizer_path}: missing; the package needs the checkpoint's tokenizer.json")
    shutil.copyfile(tokenizer_path, out / "tokenizer.json")
    specials = special_token_ids(json.loads(tokenizer_path.read_text()))
    graphs = {f"vision_{size}": _export_vision(model, size, out, options.half) for size in view_sizes(options.modes)}
    graphs["embedding"] = _export_embedding(model, out, options.half)
    graphs["decoder"] = _export_decoder(model, out, options.half)
    if options.capacity_decoder:
        graphs["decoder_capacity"] = _export_capacity_decoder(model, out, options.half)
    if model.config.num_mtp_heads:
        graphs["mtp"] = _export_mtp(model, out, options.half)
    return write_manifest(out, checkpoint, model.config, options, specials, graphs,
                          precision="fp16" if options.half else "fp32")


def write_manifest(out: Path, checkpoint: Path, cfg: ModelConfig, options: PackageOptions, specials: dict[str, int],
                   graphs: dict[str, dict], precision: str) -> Path:
    """manifest.json for the graphs written into `out`, with every file's hash. `dtype` is the float
    type of the graphs' inputs and outputs; `precision` that of the weights and arithmetic."""
    rule = options.decoding
    decoding: dict = {"no_repeat_ngram": {"size": rule.ngram_size, "window": rule.window,
                                          "exempt": [specials[t] for t in rule.exempt_tokens if t in specials]},
                      "mtp_emb_zero_at_position_0": True}
    manifest = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": options.name,
        "weights_licence": options.licence,
        "dtype": "float16" if options.half else "float32",
        "precision": precision,
        "architecture": cfg.to_dict(),
        "tokens": {"bos": cfg.decoder.bos_token_id, "eos": cfg.decoder.eos_token_id,
                   "pad": cfg.decoder.pad_token_id, "special": specials},
        "prompt": prompt_template(checkpoint),
        "decoding": decoding,
        "vision": {
            "mean": 0.5, "std": 0.5, "pad_colour": [127, 127, 127], "resample": "bicubic",
            "tokens_per_view_side": {str(s): s // cfg.sam.patch_size // 4 for s in view_sizes(options.modes)},
            "layout": ["tiles as one grid, rows end with image_newline", "global grid, rows end with image_newline",
                       "view_seperator"],
            "resolution_modes": [{**asdict(m), "candidate_grids": candidate_grids(m.min_crops, m.max_crops) if m.crop
                                  else []} for m in options.modes],
        },
        "graphs": {name: _graph_json(g) for name, g in graphs.items()},
    }
    written = ["tokenizer.json"] + [g["file"] for g in graphs.values()]
    files = sorted(set(written) | {data for g in graphs.values() for data in external_files(out / g["file"])})
    manifest["files"] = {name: sha256(out / name) for name in files}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out / "manifest.json"
