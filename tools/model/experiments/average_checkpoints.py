"""The mean of several train.py checkpoints' main-model weights, as one checkpoint export_nano.py
reads (`--checkpoint`).

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.average_checkpoints --out tools/model/runs/nano-5/average.pt \
        tools/model/runs/nano-5/checkpoint-step3492.pt tools/model/runs/nano-5/checkpoint-step4666.pt

Every floating-point tensor is averaged uniformly; anything else is taken from the last checkpoint.
Averaging checkpoints of one run taken far apart along its decaying learning rate lands nearer the
middle of the basin they both sit in than either does, which is why it reads held-out pages better
(the nano model card has the figures). Optimiser state is not kept: the result is for export, not
for resuming.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch


def average_states(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    names = states[0].keys()
    for state in states[1:]:
        if state.keys() != names:
            raise ValueError("the checkpoints hold different tensors; average checkpoints of one run")
    return {name: (sum(s[name].double() for s in states) / len(states)).to(states[0][name].dtype)
            if states[0][name].is_floating_point() else states[-1][name] for name in names}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("checkpoints", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    loaded = [torch.load(path) for path in args.checkpoints]
    torch.save({"model": average_states([c["model"] for c in loaded]), "step": loaded[-1]["step"],
                "averaged": [str(path) for path in args.checkpoints]}, args.out)
    print(f"average_checkpoints: {len(loaded)} checkpoints -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
