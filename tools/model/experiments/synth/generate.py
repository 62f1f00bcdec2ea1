"""Writes synthetic pages with their ground truth: `<name>.png`, `<name>.pdf` (the same pixels as a
256-point square page) and `<name>.md`.

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.synth.generate --split heldout --count 20 --out /tmp/pages

The training stream uses split "train"; "heldout" is never trained on; any other split name (for
example a date) gives pages nobody has generated before.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .render import PAGE_PX, make_page

# PAGE_PX pixels over a 256-point page (the nano model's view is the whole page at 512 pixels)
PDF_RESOLUTION = PAGE_PX / 256 * 72


def write_pages(split: str, start: int, count: int, out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(start, start + count):
        page = make_page(split, index)
        stem = out / f"{split}-{index:04d}"
        page.image.save(stem.with_suffix(".png"))
        page.image.save(stem.with_suffix(".pdf"), resolution=PDF_RESOLUTION)
        stem.with_suffix(".md").write_text(page.markdown + "\n")
        written.append(stem)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    written = write_pages(args.split, args.start, args.count, args.out)
    print(f"generate: wrote {len(written)} pages to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
