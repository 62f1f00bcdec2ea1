"""A nano model package -> the PyTorch checkpoints it was exported from, to train on from it.

    PYTHONPATH=tools/model /usr/bin/python3 -m experiments.recover_weights --package tools/model/fixtures/nano --run tools/model/runs/nano-6

Training runs live in the gitignored `runs/`; when a checkout has lost them, the package's ONNX
graphs hold the only copy of the weights. Many initialisers keep their PyTorch names, but the
exporter's constant folding leaves matrices anonymous (`onnx::MatMul_N`) and transposed. So the
same architecture, filled with distinct random values, is exported the same way, and every tensor
is found in it by value (as is, or transposed); the package's initialiser of the same graph and
name then gives the trained value. A tensor no graph reads keeps a fresh model's value. The result is checked by exporting it again: every initialiser
must equal the package's, bit for bit.

Writes `<run>/checkpoint.pt` (`{"model": ...}`, for `train.py --init-from` and `train_mtp.py`),
`<run>/checkpoint_mtp.pt` (`{"head": ...}`) and `<run>/tokenizer.json`. The training-only glyph
head and the optimiser's state are not in a package: they start afresh.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from folio_model.checkpoint import DERIVED_KEYS, load_model
from folio_model.model import DeepseekOCRForCausalLM
from folio_model.package import PackageOptions, write_package
from folio_model.safetensors_io import write_sharded
from .nano import NANO_DECODING, NANO_MODE, nano_config

Initialisers = dict[tuple[str, str], np.ndarray]
Place = tuple[str, str, bool]


def initialisers(package: Path) -> Initialisers:
    """Every initialiser of every graph, by (graph, name)."""
    found: Initialisers = {}
    for path in sorted(package.glob("*.onnx")):
        for tensor in onnx.load(str(path)).graph.initializer:
            found[(path.stem, tensor.name)] = numpy_helper.to_array(tensor)
    return found


def export(state: dict[str, torch.Tensor], tokenizer: dict, out: Path) -> None:
    """The nano package of these weights, written as export_nano.py writes it."""
    with tempfile.TemporaryDirectory() as scratch:
        checkpoint = Path(scratch)
        config = nano_config(len(tokenizer["model"]["vocab"]))
        (checkpoint / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False) + "\n")
        (checkpoint / "config.json").write_text(json.dumps(config.to_dict(), indent=2) + "\n")
        (checkpoint / "README.md").write_text("---\nlicense: mit\n---\n")
        write_sharded(checkpoint, {name: t.float().numpy() for name, t in state.items()}, shards=1)
        options = PackageOptions(half=False, modes=(NANO_MODE,), decoding=NANO_DECODING, licence="mit", name="recovered")
        write_package(load_model(checkpoint), checkpoint, out, options)


def places(state: dict[str, torch.Tensor], exported: Initialisers) -> tuple[dict[str, Place], list[str]]:
    """Where each tensor of `state` (distinct random values) went in its export: graph, name, transposed."""
    by_size: dict[int, list[tuple[tuple[str, str], np.ndarray]]] = {}
    for key, array in exported.items():
        by_size.setdefault(array.size, []).append((key, array))
    found: dict[str, Place] = {}
    missing: list[str] = []
    for name, tensor in state.items():
        values = tensor.float().numpy()
        place = None
        for (graph, init), array in by_size.get(values.size, []):
            if np.array_equal(array.reshape(values.shape), values):
                place = (graph, init, False)
            elif values.ndim == 2 and array.shape == values.T.shape and np.array_equal(array, values.T):
                place = (graph, init, True)
            if place:
                break
        if place:
            found[name] = place
        else:
            missing.append(name)
    return found, missing


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--package", type=Path, required=True)
    parser.add_argument("--run", type=Path, required=True)
    args = parser.parse_args(argv)
    tokenizer = json.loads((args.package / "tokenizer.json").read_text())
    model = DeepseekOCRForCausalLM(nano_config(len(tokenizer["model"]["vocab"])))
    generator = torch.Generator().manual_seed(0)
    probe = {name: torch.randn(t.shape, generator=generator) if t.is_floating_point() else t.clone()
             for name, t in model.state_dict().items() if name not in DERIVED_KEYS}
    with tempfile.TemporaryDirectory() as scratch:
        export(probe, tokenizer, Path(scratch))
        found, missing = places(probe, initialisers(Path(scratch)))
    trained = initialisers(args.package)
    # what no graph reads (CLIP's patch embedding: its input is SAM's features) keeps a fresh model's value
    state = {name: model.state_dict()[name] for name in missing}
    for name, (graph, init, transposed) in found.items():
        array = trained[(graph, init)]
        state[name] = torch.from_numpy((array.T if transposed else array.reshape(probe[name].shape)).copy())
    with tempfile.TemporaryDirectory() as scratch:
        export(state, tokenizer, Path(scratch))
        again = initialisers(Path(scratch))
    differ = sorted(f"{graph}:{name}" for (graph, name), array in trained.items()
                    if (graph, name) not in again or not np.array_equal(again[(graph, name)], array))
    if differ or len(again) != len(trained):
        print(f"recover_weights: exporting the recovered weights does not give the package back: {differ[:8]}", file=sys.stderr)
        return 1
    args.run.mkdir(parents=True, exist_ok=True)
    head = {n: t for n, t in state.items() if n.startswith("mtp_module.")}
    torch.save({"model": {n: t for n, t in state.items() if n not in head}}, args.run / "checkpoint.pt")
    torch.save({"head": head}, args.run / "checkpoint_mtp.pt")
    shutil.copyfile(args.package / "tokenizer.json", args.run / "tokenizer.json")
    print(f"recover_weights: {len(state)} tensors into {args.run}; exporting them gives the package's "
          f"{len(trained)} initialisers bit for bit; not in any graph, left as initialised: {', '.join(missing) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
