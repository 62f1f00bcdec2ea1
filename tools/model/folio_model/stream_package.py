"""A checkpoint folder -> a Folio model package, reading one tensor at a time: the vision graphs are
traced from the DeepEncoder alone, and the decoder, embedding and FastMTP graphs are written op by op
(`decoder_builder`), so memory holds at most the vision encoder or one decoder layer's experts."""
from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from .checkpoint import DERIVED_KEYS, expected_tensors, read_config
from .checkpoint_reader import CheckpointReader
from .config import ModelConfig
from .decoder_builder import PROVIDERS, BuiltGraph, Precision, build_decoder, build_embedding, build_mtp
from .graph_writer import ExternalData
from .package import PackageOptions, special_token_ids, view_sizes, write_manifest
from .vision_export import export_vision

MTP_PREFIX = "mtp_module."

# The decoder graphs each `--cache-layout` writes, by manifest name, with their layout. `both` (the
# default): the `rows` decoder for the providers that keep the cache on the device or take it whole
# (WebGPU's resident cache appends rows; CUDA), and `decoder_capacity` for the CPU, whose step no
# longer copies the past per layer. The two share one `decoder.onnx.data`, each weight written once.
# The second graph is built from the checkpoint again (its weights read and quantised again, then
# found in the file by name and digest), so the decoder's share of an export takes twice as long.
# A single layout is written as `decoder`.
DECODER_GRAPHS = {"both": {"decoder": "rows", "decoder_capacity": "capacity"},
                  "rows": {"decoder": "rows"},
                  "capacity": {"decoder": "capacity"}}
_HEAD_INDEX = re.compile(r"^mtp_module\.heads\.(\d+)\.")


class CheckpointMismatch(ValueError):
    """The checkpoint's tensors are not the ones its config describes."""


@dataclass(frozen=True)
class ExportOptions:
    package: PackageOptions
    precision: Precision
    # export the base model only, leaving out every `mtp_module.*` tensor
    without_draft_head: bool = False
    # export despite config.json fields Folio does not know (listed in a warning)
    allow_unknown_config: bool = False
    # the decoder graphs to write: a key of DECODER_GRAPHS
    cache_layout: str = "both"


def _listing(names: list[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def draft_heads(names: list[str]) -> int:
    """How many FastMTP heads the checkpoint's tensor names hold."""
    indexes = {int(m.group(1)) for n in names if (m := _HEAD_INDEX.match(n))}
    return max(indexes) + 1 if indexes else 0


def check_tensors(reader: CheckpointReader, cfg: ModelConfig, without_draft_head: bool) -> ModelConfig:
    """The config with its draft-head count taken from the tensors; every name accounted for."""
    present = reader.names()
    if without_draft_head:
        present = [n for n in present if not n.startswith(MTP_PREFIX)]
        cfg = replace(cfg, num_mtp_heads=0)
    else:
        heads = draft_heads(present)
        if cfg.num_mtp_heads and heads != cfg.num_mtp_heads:
            raise CheckpointMismatch(f"{reader.directory}: config.json names {cfg.num_mtp_heads} MTP head(s) but the "
                                     f"checkpoint holds {heads}")
        cfg = replace(cfg, num_mtp_heads=heads)
    expected = expected_tensors(cfg)
    missing = sorted(set(expected) - set(present))
    unknown = sorted(set(present) - set(expected) - set(DERIVED_KEYS))
    if missing:
        raise CheckpointMismatch(f"{reader.directory}: {len(missing)} tensor(s) the config calls for are missing: "
                                 f"{_listing(missing)}; is this a DeepSeek-OCR / jina-ocr-v1 checkpoint with its own "
                                 "config.json?")
    if unknown:
        hint = (" (they look like a draft head Folio cannot map: --without-draft-head exports the base model)"
                if any(n.startswith(MTP_PREFIX) for n in unknown) else "")
        raise CheckpointMismatch(f"{reader.directory}: {len(unknown)} tensor(s) Folio does not know: "
                                 f"{_listing(unknown)}{hint}")
    for name in sorted(set(present) & set(expected)):
        if reader.shape(name) != expected[name]:
            raise CheckpointMismatch(f"{reader.directory}: tensor {name} has shape {list(reader.shape(name))}, the "
                                     f"config calls for {list(expected[name])}")
    return cfg


def banned_token_ids(tokenizer: dict, vocab_size: int) -> list[list[int]]:
    """[start, end) ranges of the ids below `vocab_size` the tokenizer has no token for: the model
    can emit them (its lm_head has those rows) and the runtime must never choose them."""
    known = set(tokenizer.get("model", {}).get("vocab", {}).values())
    known |= {t["id"] for t in tokenizer.get("added_tokens", [])}
    ranges: list[list[int]] = []
    for token in range(vocab_size):
        if token in known:
            continue
        if ranges and ranges[-1][1] == token:
            ranges[-1][1] = token + 1
        else:
            ranges.append([token, token + 1])
    return ranges


def _graph_entry(built: BuiltGraph) -> dict:
    entry: dict = {"file": built.file, "inputs": built.inputs, "outputs": built.outputs, "nodes": built.nodes}
    if built.routed_experts:
        entry["routed_experts"] = built.routed_experts.manifest()
    return {**entry, "requires": built.requires} if built.requires else entry


def write_streamed_package(checkpoint: Path, out: Path, options: ExportOptions,
                           log: Callable[[str], None] = print) -> Path:
    cfg = read_config(checkpoint, allow_unknown=options.allow_unknown_config)
    reader = CheckpointReader(checkpoint)
    cfg = check_tensors(reader, cfg, options.without_draft_head)
    tokenizer_path = checkpoint / "tokenizer.json"
    if not tokenizer_path.exists():
        raise FileNotFoundError(f"{tokenizer_path}: missing; the package needs the checkpoint's tokenizer.json")
    tokenizer = json.loads(tokenizer_path.read_text())
    specials = special_token_ids(tokenizer)
    banned = banned_token_ids(tokenizer, cfg.decoder.vocab_size)
    if banned:
        count = sum(end - start for start, end in banned)
        log(f"export: the tokenizer has no token for {count} id(s) below vocab_size {cfg.decoder.vocab_size} "
            f"(first: {banned[0][0]}); the manifest bans them from decoding")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(tokenizer_path, out / "tokenizer.json")
    precision = options.precision
    half = precision.weight_dtype == np.float16
    graphs: dict[str, dict] = {}
    # one weights file for every view size: the graphs differ only in their resized position tables
    vision_weights = ExternalData(out / "vision.onnx.data", dedupe=True)
    for size in view_sizes(options.package.modes):
        log(f"export: vision_{size}")
        graphs[f"vision_{size}"] = export_vision(reader, cfg, size, out, half, vision_weights, precision.vision_linear_bits)
    vision_weights.close()
    log("export: embedding")
    graphs["embedding"] = _graph_entry(build_embedding(reader, cfg.decoder, precision, out))
    decoders = DECODER_GRAPHS[options.cache_layout]
    decoder_weights = ExternalData(out / "decoder.onnx.data", dedupe=len(decoders) > 1)
    for name, layout in decoders.items():
        log(f"export: {name} ({cfg.decoder.num_hidden_layers} layers, {precision.name}, cache in {layout})")
        graphs[name] = _graph_entry(build_decoder(reader, cfg.decoder, precision, out, layout, f"{name}.onnx",
                                                  decoder_weights))
    decoder_weights.close()
    if cfg.num_mtp_heads:
        log("export: mtp (draft head)")
        graphs["mtp"] = _graph_entry(build_mtp(reader, cfg.decoder, precision, out))
    package = replace(options.package, half=half)
    return write_manifest(out, checkpoint, cfg, package, specials, graphs, precision=precision.name,
                          providers=_providers(precision.name, options.cache_layout), banned_ids=banned)


def _providers(precision: str, cache_layout: str) -> list[str]:
    """The WebGPU path keeps the decoder's cache on the device in the `rows` layout (its
    `cache_append` graphs), so a package without a `rows` decoder is for the providers that take
    host caches."""
    rows = DECODER_GRAPHS[cache_layout]["decoder"] == "rows"
    return [p for p in PROVIDERS[precision] if rows or p != "webgpu"]
