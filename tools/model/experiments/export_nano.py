"""Trained nano checkpoints -> a Folio model package, through build_tiny.py's path (package.py, traced).

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.export_nano --run tools/model/runs/nano --out tools/model/fixtures/nano

The main model comes from `<run>/checkpoint.pt` (train.py; `--checkpoint` for another, such as
an average from `average_checkpoints.py`) and the FastMTP head from `<run>/checkpoint_mtp.pt`
(train_mtp.py; `--head` for another; without one the head stays untrained and a warning says
so). Like build_tiny.py, the weights are written as a safetensors checkpoint folder (config.json,
tokenizer.json, model card) and then loaded strictly and exported by `write_package`, with the
nano resolution mode (one 512-pixel view, the whole page) and fp32 weights. A tokenizer check file
(`tokenizer-check.json`: page texts and the ids the Python encoder gives them) is written beside
the package so the TypeScript side can prove it tokenizes identically.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import torch

from folio_model.byte_bpe import encode
from folio_model.checkpoint import load_model
from folio_model.package import PackageOptions, write_package
from folio_model.safetensors_io import write_sharded
from .nano import NANO_DECODING, NANO_MODE, nano_config
from .synth.render import make_page

CARD = "---\nlicense: mit\n---\nFolio nano OCR demo model, trained on synthetic pages only.\n"


def write_checkpoint(run: Path, main: Path, mtp: Path, directory: Path) -> None:
    tokenizer = json.loads((run / "tokenizer.json").read_text())
    config = nano_config(len(tokenizer["model"]["vocab"]))
    state = torch.load(main)["model"]
    if mtp.exists():
        state.update(torch.load(mtp)["head"])
    else:
        print(f"export_nano: {mtp} is missing; the FastMTP head is untrained", file=sys.stderr)
    (directory / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False, indent=1) + "\n")
    (directory / "config.json").write_text(json.dumps(config.to_dict(), indent=2) + "\n")
    (directory / "README.md").write_text(CARD)
    write_sharded(directory, {name: t.float().numpy() for name, t in state.items()}, shards=1)


def write_tokenizer_check(tokenizer: dict, out: Path) -> None:
    texts = [make_page("heldout", i).markdown for i in range(4)]
    cases = [{"text": t, "ids": encode(tokenizer, t)} for t in texts]
    (out / "tokenizer-check.json").write_text(json.dumps({"cases": cases}, ensure_ascii=False) + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--name", default="folio-nano-synthetic")
    parser.add_argument("--checkpoint", type=Path, help="the main model (default <run>/checkpoint.pt)")
    parser.add_argument("--head", type=Path, help="the FastMTP head (default <run>/checkpoint_mtp.pt)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        checkpoint = Path(scratch)
        write_checkpoint(args.run, args.checkpoint or args.run / "checkpoint.pt",
                         args.head or args.run / "checkpoint_mtp.pt", checkpoint)
        options = PackageOptions(half=False, modes=(NANO_MODE,), decoding=NANO_DECODING, licence="mit",
                                 name=args.name)
        manifest = write_package(load_model(checkpoint), checkpoint, args.out, options)
        write_tokenizer_check(json.loads((checkpoint / "tokenizer.json").read_text()), args.out)
    print(f"export_nano: wrote {manifest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
