"""Checkpoint folder (config.json, *.safetensors, tokenizer.json) -> Folio model package, one tensor
at a time (peak memory: the vision encoder, or one decoder layer's experts).

    python3 tools/model/export.py --checkpoint DIR --out PKG --precision fp32|fp16|int4
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

from .blas import blas_warning
from .config import ConfigError, unknown_fields
from .decoder_builder import PRECISIONS
from .package import DecodingRule, PackageOptions, read_licence
from .preprocess import RESOLUTION_MODES
from .stream_package import DECODER_GRAPHS, CheckpointMismatch, ExportOptions, write_streamed_package

# DeepSeek-OCR's vLLM settings and jina-ocr-v1's, for --decoding
DECODING_RULES = {"deepseek-ocr": DecodingRule(30, 90), "jina-ocr-v1": DecodingRule(35, 1024)}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True, type=Path, help="Hugging Face checkpoint folder")
    parser.add_argument("--out", required=True, type=Path, help="package folder to write")
    parser.add_argument("--precision", choices=sorted(PRECISIONS), default="int4",
                        help="fp32: exact, the CPU reference; fp16: fp16 weights and arithmetic, for CUDA; "
                             "int4: 4-bit matrices (MatMulNBits) and routed experts (QMoE; see --expert-bits), for CPUs, "
                             "WebGPU and small GPUs")
    parser.add_argument("--block-size", type=int, default=32, choices=(16, 32, 64, 128),
                        help="int4 quantisation block along the input dimension, for every matrix but the routed experts")
    parser.add_argument("--expert-block-size", type=int, choices=(0, 16, 32, 64, 128),
                        help="int4 block of the routed experts; 0: one scale per output column. Default: for 4-bit "
                             "experts the largest of 128, 64, 32 that fits at least twice into each of the experts' "
                             "widths (ONNX Runtime's CPU QMoE then runs them through MLAS's 4-bit GEMM), for 8-bit "
                             "ones per column")
    parser.add_argument("--expert-bits", type=int, choices=(4, 8),
                        help="int4 package: bits of the routed experts. Default: 4 in MLAS's blocks, fastest on the CPU, "
                             "where the experts' widths take them, else 8 per column, the fast 8-bit layout")
    parser.add_argument("--modes", default="gundam", help=f"comma-separated, from {', '.join(RESOLUTION_MODES)}")
    parser.add_argument("--decoding", choices=sorted(DECODING_RULES), default="deepseek-ocr",
                        help="no-repeat n-gram rule recorded in the manifest")
    parser.add_argument("--max-crops", type=int, default=6,
                        help="most Gundam tiles (DeepSeek-OCR's setting: 6; jina-ocr-v1 ports: 9)")
    parser.add_argument("--licence", help="weights licence; default: the model card's `license:` field")
    parser.add_argument("--name", help="model name; default: the checkpoint folder's name")
    parser.add_argument("--without-draft-head", action="store_true",
                        help="export the base model only, leaving out the checkpoint's mtp_module.* tensors")
    parser.add_argument("--cache-layout", choices=sorted(DECODER_GRAPHS), default="both",
                        help="the decoder's KV cache layout. both (the default): decoder.onnx in the rows layout "
                             "(each step joins the past to the new rows; the WebGPU path's resident cache needs it, "
                             "CUDA runs it) and decoder_capacity.onnx for the CPU (the cache read in place at "
                             "capacity with an attention bias: no copy of the past per step), sharing one weights "
                             "file; rows or capacity: that layout only, as decoder.onnx (capacity: no WebGPU)")
    parser.add_argument("--allow-unknown-config", action="store_true",
                        help="export although config.json has fields Folio does not know (each is named in a "
                             "warning); fields Folio knows but does not implement are still refused")
    return parser.parse_args(argv)


def export_options(args: argparse.Namespace) -> ExportOptions | str:
    """The export's options, or what is wrong with the command line."""
    unknown = [m for m in args.modes.split(",") if m not in RESOLUTION_MODES]
    if unknown:
        return f"unknown mode {unknown[0]!r}; choose from {', '.join(RESOLUTION_MODES)}"
    if not 2 <= args.max_crops <= 9:
        return f"--max-crops {args.max_crops} is outside 2..9 (the reference allows at most 9 tiles)"
    licence = args.licence or read_licence(args.checkpoint)
    if not licence:
        return f"{args.checkpoint}/README.md states no licence; pass --licence"
    package = PackageOptions(
        half=args.precision == "fp16",
        modes=tuple(replace(RESOLUTION_MODES[m], max_crops=args.max_crops) for m in args.modes.split(",")),
        decoding=DECODING_RULES[args.decoding],
        licence=licence,
        name=args.name or args.checkpoint.resolve().name,
    )
    precision = replace(PRECISIONS[args.precision], block_size=args.block_size, expert_block_size=args.expert_block_size,
                        expert_bits=args.expert_bits)
    return ExportOptions(package, precision, without_draft_head=args.without_draft_head,
                         allow_unknown_config=args.allow_unknown_config, cache_layout=args.cache_layout)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    warning = blas_warning()
    if warning:
        print(f"export: warning: {warning}", file=sys.stderr)
    options = export_options(args)
    if isinstance(options, str):
        print(f"export: {options}", file=sys.stderr)
        return 2
    if args.allow_unknown_config:
        for field in unknown_fields(json.loads((args.checkpoint / "config.json").read_text())):
            print(f"export: warning: config.json field {field} is unknown to Folio and ignored", file=sys.stderr)
    try:
        manifest = write_streamed_package(args.checkpoint, args.out, options,
                                          log=lambda line: print(line, file=sys.stderr, flush=True))
    except (CheckpointMismatch, ConfigError, FileNotFoundError, ValueError) as error:
        print(f"export: {error}", file=sys.stderr)
        return 1
    print(f"export: wrote {manifest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
