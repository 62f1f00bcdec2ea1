"""`python3 -m folio_model <command> ...`: the model tooling's commands, each a module's `main(argv)`.

Run from tools/model, or anywhere once installed (`pip install --no-deps --no-build-isolation -e
tools/model`) or with tools/model on PYTHONPATH.
"""
from __future__ import annotations

import importlib
import sys

# command -> (module, what it does); imported only when chosen, since torch takes seconds to load
COMMANDS = {
    "random-checkpoint": ("folio_model.random_checkpoint", "a checkpoint with random weights at the real width"),
    "parity": ("folio_model.parity", "reference cases (graph inputs, PyTorch outputs) from a checkpoint"),
    "build-tiny": ("folio_model.build_tiny", "the tiny test model and its parity fixtures (fixtures/tiny*)"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name.ljust(width)}  {about}" for name, (_, about) in COMMANDS.items()]
    return "usage: python3 -m folio_model <command> [options]\n\ncommands:\n" + "\n".join(lines) + \
        "\n\n`python3 -m folio_model <command> --help` gives a command's options.\n"


def main(argv: list[str] | None = None) -> int:
    """Runs the command `argv` names (default: this process's arguments, as `-m` and the
    `folio-model` script give them)."""
    if argv is None:
        argv = sys.argv[1:]
        if argv:
            sys.argv[0] = f"python3 -m folio_model {argv[0]}"  # the name a command's --help shows
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(usage())
        return 0 if argv else 2
    command = COMMANDS.get(argv[0])
    if command is None:
        sys.stderr.write(f"folio_model: unknown command {argv[0]!r}\n\n{usage()}")
        return 2
    return importlib.import_module(command[0]).main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
