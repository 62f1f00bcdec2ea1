"""Character error rate and speculative speed-up of a model package on synthetic pages, measured
through the real CLI.

    npm run build
    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.eval_cer --model tools/model/fixtures/nano --split heldout --count 20

Writes the pages (`synth/generate.py`) as PDFs and runs `folio convert --engine vlm` on all of them,
once per `--spec-k` value (0 = greedy, 1..4, `auto`: the CLI's default), in alternating rounds so
machine load hits every K alike. CER: edit distance over the ground truth's length, both with
surrounding whitespace stripped, from the greedy run. Per K: whether every page's Markdown equals
greedy's, mean tokens per step, acceptance by draft position over all drafts, and decode tokens/s
(all pages' new tokens over their decode time) as a ratio to greedy's.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from .synth.generate import write_pages

ROOT = Path(__file__).resolve().parents[3]


def character_error_rate(predicted: str, truth: str) -> float:
    previous = list(range(len(truth) + 1))
    for i, a in enumerate(predicted, 1):
        current = [i]
        for j, b in enumerate(truth, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return previous[-1] / max(1, len(truth))


DISPLAY_LINE = re.compile(r"^ {0,3}\$\$((?:(?!\$\$)[^\n])+)\$\$[ \t]*$", re.MULTILINE)


def exported_markdown(truth: str) -> str:
    """The ground truth as the CLI would write a perfect reading of it: a display formula alone on
    its line as a `$$` block (shared/math-delimiters.ts, the only rule that applies to these pages)."""
    return DISPLAY_LINE.sub(lambda match: f"$$\n{match.group(1).strip()}\n$$", truth)


def spec_ks(text: str) -> list[str]:
    """`--ks` as the CLI's `--spec-k` values, greedy ("0") first, then K = 1..4 in order, then auto."""
    wanted = {k.strip() for k in text.split(",")} - {"0"}
    return ["0", *map(str, sorted(int(k) for k in wanted if k != "auto")), *(["auto"] if "auto" in wanted else [])]


def pooled_acceptance(pages: list[dict]) -> list[float]:
    """Acceptance by draft position over all pages' drafts: each page's rate weighted by its steps that
    drafted at that position (steps with a larger K), so pages where `auto` seldom drafted there count little."""
    positions = max(len(page["acceptance"]) for page in pages)
    pooled = []
    for i in range(positions):
        weights = [sum(page["stepsAtK"][i + 1:]) for page in pages]
        accepted = sum(w * page["acceptance"][i] for w, page in zip(weights, pages) if i < len(page["acceptance"]))
        pooled.append(accepted / max(1, sum(weights)))
    return pooled


def convert(pdfs: list[Path], model: Path, out: Path, spec_k: str, max_tokens: int) -> list[dict]:
    command = ["node", str(ROOT / "bin/folio.js"), "convert", *map(str, pdfs), "-o", str(out), "--engine", "vlm",
               "--model", str(model), "--spec-k", spec_k, "--max-tokens", str(max_tokens), "--json"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    if run.returncode != 0:
        raise RuntimeError(f"folio convert failed ({run.returncode}): {run.stderr[-2000:]}")
    return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--ks", default="0,1,2,3,4", help="--spec-k values (0..4, auto); 0 is greedy and always runs")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=400)
    args = parser.parse_args(argv)
    ks = spec_ks(args.ks)
    with tempfile.TemporaryDirectory() as scratch:
        pages = write_pages(args.split, args.start, args.count, Path(scratch) / "pages")
        pdfs = [p.with_suffix(".pdf") for p in pages]
        markdown: dict[str, list[str]] = {}
        stats: dict[str, list[dict]] = {k: [] for k in ks}
        for round_ in range(args.rounds):
            for k in ks:
                out = Path(scratch) / f"out-{k}-{round_}"
                events = convert(pdfs, args.model, out, k, args.max_tokens)
                stats[k] += [e["stats"]["decode"] for e in events if e.get("event") == "page-done"]
                markdown[k] = [(out / p.with_suffix(".md").name).read_text().strip() for p in pages]
        truths = [exported_markdown(p.with_suffix(".md").read_text().strip()) for p in pages]
    rates = [character_error_rate(m, t) for m, t in zip(markdown["0"], truths)]
    for stem, rate in zip(pages, rates):
        print(f"{stem.name}: CER {rate:.4f}")
    print(f"mean CER {sum(rates) / len(rates):.4f} over {len(rates)} pages ({args.split} {args.start}..), greedy")
    greedy_rate = sum(s["newTokens"] for s in stats["0"]) * 1000 / sum(s["decodeMs"] for s in stats["0"])
    for k in ks:
        rows = stats[k]
        rate = sum(s["newTokens"] for s in rows) * 1000 / sum(s["decodeMs"] for s in rows)
        line = f"K={k}: {rate:.1f} tokens/s ({rate / greedy_rate:.2f}x greedy)"
        if k != "0":
            per_step = sum(s["newTokens"] for s in rows) / sum(s["steps"] for s in rows)
            acceptance = pooled_acceptance(rows)
            same = sum(m == g for m, g in zip(markdown[k], markdown["0"]))
            line += (f", {per_step:.2f} tokens/step, acceptance by position "
                     f"{' '.join(f'{a:.2f}' for a in acceptance)}, output equal to greedy on {same}/{len(pages)} pages")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
