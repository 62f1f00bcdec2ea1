"""A random checkpoint at the real width: what the exporter is measured and tested on without the
real weights.

    /usr/bin/python3 tools/model/random_checkpoint.py --config CONFIG.json --layers N [--mtp] --out DIR \\
        [--sam-layers N] [--clip-layers N] [--seed S] [--shard-size 2GB]

Writes into DIR, as a Hugging Face checkpoint folder:
- `model-0000i-of-0000n.safetensors` bf16 shards of at most `--shard-size` bytes and
  `model.safetensors.index.json`, with the names and shapes the reference model
  (`folio_model/model.py`) loads, `mtp_module.heads.0.*` included with `--mtp`;
- `config.json`: CONFIG with the layer counts changed wherever CONFIG states them (the top level
  and `language_config`; `vision_config` or `folio_vision` for `--sam-layers`/`--clip-layers`, with
  SAM's global-attention blocks kept inside the new depth) and, with `--mtp`, one MTP head;
- `tokenizer.json`: byte-level BPE with BOS 0, EOS 1, pad 2 and the special tokens at their
  published ids 128815-128826 (synthetic letter merges fill the ids between);
- `README.md` (`license: mit`) and, for a model with an MTP head (jina-ocr-v1's layout), a stand-in
  `chat_template.jinja`.

`--layers N` keeps `first_k_dense_replace` from CONFIG: with DeepSeek-OCR's 1, layer 0 is dense and
the rest MoE. Values the exporter must refuse (`scoring_func: sigmoid`, unknown fields) are written
as given: they leave the tensors as Folio builds them, and refusing them is the exporter's job.

Weights: matrices, embeddings and position tables normal with std 0.02, norm scales 1, biases 0,
so the model's activations stay finite. Each tensor has its own generator seeded from (seed, name),
so a tensor's values do not depend on the layer count or the shard size. Tensors are generated
and written in chunks of at most 4M values: memory stays bounded whatever the model's size.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import re
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import torch

from .byte_bpe import ALPHABET, SPACE, build_tokenizer
from .checkpoint import DERIVED_KEYS, meta_model
from .config import ModelConfig, SamConfig, sizes_from_dict
from .decoder import RMSNorm
from .package import SPECIAL_TOKENS
from .safetensors_io import INDEX_FILE, SafetensorsStream, fp32_to_bf16
from .sam import LayerNorm2d

FIRST_SPECIAL_ID = 128815  # <image> in the published tokenizers; the other specials follow it
CHUNK = 1 << 22
STD = 0.02
MTP_COUNT_KEYS = ("num_nextn_predict_layers", "mtp_num_heads", "num_mtp_heads")
# Not jina-ocr-v1's own file (no copy was at hand): DeepSeek's <|User|>/<|Assistant|> turns, which
# the runtime renders with @huggingface/jinja like any chat_template.jinja.
CHAT_TEMPLATE = ("{{ bos_token }}{% for message in messages %}{% if message['role'] == 'user' %}"
                 "<|User|>{{ message['content'] }}{% elif message['role'] == 'assistant' %}"
                 "<|Assistant|>{{ message['content'] }}{{ eos_token }}{% endif %}{% endfor %}"
                 "{% if add_generation_prompt %}<|Assistant|>{% endif %}")


def parse_size(text: str) -> int:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)B?\s*", text.upper())
    if not match:
        raise argparse.ArgumentTypeError(f"{text!r}: give a size such as 2GB, 500MB or 1048576")
    return int(float(match.group(1)) * {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}[match.group(2)])


def _set_where_stated(raw: dict, keys: tuple[str, ...], value: Any, sections: tuple[str, ...],
                      default_section: str | None) -> None:
    """Sets each of `keys` in every section of `raw` that states it; if none does, sets keys[0] in
    `default_section` (the top level when None)."""
    stated = False
    for section in sections:
        node = raw if section == "" else raw.get(section)
        if isinstance(node, dict):
            for key in keys:
                if key in node:
                    node[key] = value
                    stated = True
    if not stated:
        node = raw if default_section is None else raw.setdefault(default_section, {})
        node[keys[0]] = value


def _global_blocks(indexes: list[int], depth: int) -> list[int]:
    """SAM's global-attention blocks inside a reduced depth; the last block if none is left, so
    windowed and global blocks are both still there."""
    kept = [i for i in indexes if i < depth]
    return kept or [depth - 1]


def _tower_sizes(raw: dict, tower: str) -> tuple[dict, str]:
    """The object stating a vision tower's sizes, and its depth key: Folio's `folio_vision` form
    when the config has no `vision_config`, else `vision_config.width.<tower>` (made if absent)."""
    published, folio_name, folio_depth = {"sam": ("sam_vit_b", "sam", "depth"),
                                          "clip": ("clip-l-14-224", "clip", "num_layers")}[tower]
    folio = raw.get("folio_vision")
    if isinstance(folio, dict) and "vision_config" not in raw:
        return folio.setdefault(folio_name, {}), folio_depth
    return raw.setdefault("vision_config", {}).setdefault("width", {}).setdefault(published, {}), "layers"


def reduced_config(raw: dict, layers: int, mtp: bool, sam_layers: int | None,
                   clip_layers: int | None) -> dict:
    """config.json for the checkpoint: `raw` with the depths changed where it states them."""
    raw = copy.deepcopy(raw)
    language = ("", "language_config", "text_config")
    _set_where_stated(raw, ("num_hidden_layers",), layers, language,
                      "language_config" if "language_config" in raw else None)
    if mtp:
        _set_where_stated(raw, MTP_COUNT_KEYS, 1, language, None)
    if sam_layers is not None:
        sam, depth_key = _tower_sizes(raw, "sam")
        sam[depth_key] = sam_layers
        stated = sam.get("global_attn_indexes", list(SamConfig().global_attn_indexes))
        sam["global_attn_indexes"] = _global_blocks(list(stated), sam_layers)
    if clip_layers is not None:
        clip, depth_key = _tower_sizes(raw, "clip")
        clip[depth_key] = clip_layers
    return raw


def letter_merges(count: int) -> list[tuple[str, str]]:
    """`count` valid byte-level BPE merges over ASCII letters: space+letter, space+two letters, two
    letters, then three letters; enough to put the specials at their published ids."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)] + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    pairs = [(a, b) for a in letters for b in letters]

    def merges() -> Iterator[tuple[str, str]]:
        yield from ((SPACE, a) for a in letters)
        yield from ((SPACE + a, b) for a, b in pairs)
        yield from pairs
        yield from ((a + b, c) for a, b in pairs for c in letters)

    out = []
    for merge in merges():
        if len(out) == count:
            return out
        out.append(merge)
    raise ValueError(f"only {len(out)} letter merges exist; {count} asked")


def real_ids_tokenizer(vocab_size: int) -> dict:
    """tokenizer.json with BOS/EOS/pad at 0-2 and the specials at 128815-128826."""
    base = 3 + len(ALPHABET)
    if vocab_size < FIRST_SPECIAL_ID + len(SPECIAL_TOKENS):
        raise ValueError(f"vocab_size {vocab_size} is below {FIRST_SPECIAL_ID + len(SPECIAL_TOKENS)}: the special "
                         "tokens' published ids would not fit")
    tokenizer = build_tokenizer(letter_merges(FIRST_SPECIAL_ID - base), list(SPECIAL_TOKENS))
    vocab = tokenizer["model"]["vocab"]
    assert vocab[SPECIAL_TOKENS[0]] == FIRST_SPECIAL_ID, vocab[SPECIAL_TOKENS[0]]
    return tokenizer


def tensor_plan(cfg: ModelConfig) -> tuple[dict[str, tuple[int, ...]], set[str]]:
    """Name -> shape of every stored tensor (module order), and the names of the norm scales (1.0;
    their biases and every other bias are 0)."""
    model = meta_model(cfg)
    norms = (torch.nn.LayerNorm, RMSNorm, LayerNorm2d)
    units = {f"{name}.weight" for name, module in model.named_modules() if isinstance(module, norms)}
    shapes = {name: tuple(t.shape) for name, t in model.state_dict().items() if name not in DERIVED_KEYS}
    return shapes, units


def plan_shards(tensors: dict[str, tuple[int, ...]], shard_bytes: int) -> list[list[str]]:
    """Consecutive tensors (module order) grouped into shards of at most `shard_bytes` bf16 bytes
    (a larger single tensor gets a shard of its own)."""
    shards: list[list[str]] = [[]]
    size = 0
    for name, shape in tensors.items():
        nbytes = 2 * math.prod(shape)
        if shards[-1] and size + nbytes > shard_bytes:
            shards.append([])
            size = 0
        shards[-1].append(name)
        size += nbytes
    return shards


def tensor_chunks(name: str, shape: tuple[int, ...], seed: int, units: set[str]) -> Iterator[np.ndarray]:
    """The tensor's bf16 bit patterns, at most CHUNK values at a time."""
    count = math.prod(shape)
    if name in units or name.endswith(".bias"):
        fill = fp32_to_bf16(np.full(min(count, CHUNK), 1.0 if name in units else 0.0, dtype=np.float32))
        for start in range(0, count, CHUNK):
            yield fill[:min(CHUNK, count - start)]
        return
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    for start in range(0, count, CHUNK):
        values = rng.standard_normal(min(CHUNK, count - start), dtype=np.float32)
        values *= STD
        yield fp32_to_bf16(values)


def write_weights(out: Path, cfg: ModelConfig, seed: int, shard_bytes: int) -> tuple[int, int]:
    """Shards and index; returns (tensor count, total bytes)."""
    tensors, units = tensor_plan(cfg)
    shards = plan_shards(tensors, shard_bytes)
    weight_map, total = {}, 0
    for i, names in enumerate(shards):
        file = f"model-{i + 1:05d}-of-{len(shards):05d}.safetensors"
        entries = [(name, "BF16", tensors[name]) for name in names]
        with SafetensorsStream(out / file, entries, metadata={"format": "pt"}) as stream:
            for name in names:
                for chunk in tensor_chunks(name, tensors[name], seed, units):
                    stream.write(name, chunk)
                weight_map[name] = file
                total += 2 * math.prod(tensors[name])
    index = {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}
    (out / INDEX_FILE).write_text(json.dumps(index, indent=2) + "\n")
    return len(tensors), total


def model_card(args: argparse.Namespace, cfg: ModelConfig, tensors: int, total: int) -> str:
    d = cfg.decoder
    return (f"---\nlicense: mit\n---\n# Random {d.num_hidden_layers}-layer checkpoint at the real width\n\n"
            f"Made by Folio's `tools/model/random_checkpoint.py` from `{args.config.name}` with seed {args.seed}: "
            f"random weights, no training. {tensors} bf16 tensors, {total / 1e9:.2f} GB; decoder hidden "
            f"{d.hidden_size}, {d.num_hidden_layers} layers, {d.n_routed_experts} experts; SAM depth "
            f"{cfg.sam.depth}, CLIP {cfg.clip.num_layers} layers; "
            f"{cfg.num_mtp_heads} FastMTP head(s). For testing the exporter and the runtime only.\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", type=Path, required=True, help="a DeepSeek-OCR / jina-ocr-v1 config.json")
    parser.add_argument("--layers", type=int, required=True, help="decoder layers (first_k_dense_replace stay dense)")
    parser.add_argument("--mtp", action="store_true", help="add one FastMTP head (mtp_module.heads.0.*)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sam-layers", type=int, help="SAM depth (default: the config's)")
    parser.add_argument("--clip-layers", type=int, help="CLIP layers (default: the config's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shard-size", type=parse_size, default=parse_size("2GB"),
                        help="most bytes per safetensors shard (default 2GB)")
    args = parser.parse_args(argv)
    for flag in ("layers", "sam_layers", "clip_layers"):
        value = getattr(args, flag)
        if value is not None and value < 1:
            parser.error(f"--{flag.replace('_', '-')} must be at least 1")
    raw = reduced_config(json.loads(args.config.read_text()), args.layers, args.mtp, args.sam_layers, args.clip_layers)
    cfg = sizes_from_dict(raw)
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    tensors, total = write_weights(args.out, cfg, args.seed, args.shard_size)
    (args.out / "config.json").write_text(json.dumps(raw, indent=2) + "\n")
    tokenizer = real_ids_tokenizer(cfg.decoder.vocab_size)
    (args.out / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False) + "\n")
    (args.out / "README.md").write_text(model_card(args, cfg, tensors, total))
    if cfg.num_mtp_heads:
        (args.out / "chat_template.jinja").write_text(CHAT_TEMPLATE + "\n")
    print(f"{args.out}: {tensors} tensors, {total / 1e9:.2f} GB bf16 in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
