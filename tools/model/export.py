"""Checkpoint folder (config.json, *.safetensors, tokenizer.json) -> Folio model package.

    python3 tools/model/export.py --checkpoint DIR --out PKG [--dtype fp16|fp32]
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from folio_model.checkpoint import load_model  # noqa: E402
from folio_model.package import DecodingRule, PackageOptions, read_licence, write_package  # noqa: E402
from folio_model.preprocess import RESOLUTION_MODES  # noqa: E402

# DeepSeek-OCR's vLLM settings and jina-ocr-v1's, for --decoding
DECODING_RULES = {"deepseek-ocr": DecodingRule(30, 90), "jina-ocr-v1": DecodingRule(35, 1024)}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True, type=Path, help="Hugging Face checkpoint folder")
    parser.add_argument("--out", required=True, type=Path, help="package folder to write")
    parser.add_argument("--dtype", choices=("fp16", "fp32"), default="fp16",
                        help="weights and graph I/O (logits are always fp32; arithmetic is fp32)")
    parser.add_argument("--modes", default="gundam", help=f"comma-separated, from {', '.join(RESOLUTION_MODES)}")
    parser.add_argument("--decoding", choices=sorted(DECODING_RULES), default="deepseek-ocr",
                        help="no-repeat n-gram rule recorded in the manifest")
    parser.add_argument("--max-crops", type=int, default=6,
                        help="most Gundam tiles (DeepSeek-OCR's setting: 6; jina-ocr-v1 ports: 9)")
    parser.add_argument("--licence", help="weights licence; default: the model card's `license:` field")
    parser.add_argument("--name", help="model name; default: the checkpoint folder's name")
    parser.add_argument("--contrib-moe", action="store_true",
                        help="also write decoder_contrib_moe.onnx, running only the routed experts through "
                             "ONNX Runtime's com.microsoft.MoE op (CPU and CUDA); decoder.onnx stays plain")
    return parser.parse_args(argv)


def package_options(args: argparse.Namespace) -> PackageOptions | str:
    """The options for `write_package`, or what is wrong with the command line."""
    unknown = [m for m in args.modes.split(",") if m not in RESOLUTION_MODES]
    if unknown:
        return f"unknown mode {unknown[0]!r}; choose from {', '.join(RESOLUTION_MODES)}"
    if not 2 <= args.max_crops <= 9:
        return f"--max-crops {args.max_crops} is outside 2..9 (the reference allows at most 9 tiles)"
    licence = args.licence or read_licence(args.checkpoint)
    if not licence:
        return f"{args.checkpoint}/README.md states no licence; pass --licence"
    return PackageOptions(
        half=args.dtype == "fp16",
        modes=tuple(replace(RESOLUTION_MODES[m], max_crops=args.max_crops) for m in args.modes.split(",")),
        decoding=DECODING_RULES[args.decoding],
        licence=licence,
        name=args.name or args.checkpoint.resolve().name,
        contrib_moe=args.contrib_moe,
    )


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    options = package_options(args)
    if isinstance(options, str):
        print(f"export: {options}", file=sys.stderr)
        return 2
    manifest = write_package(load_model(args.checkpoint), args.checkpoint, args.out, options)
    print(f"export: wrote {manifest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
