"""The test models' traced packages (package.py, onnx_export.py): fp16 weights, and the committed tiny
fixtures rebuilt byte for byte. Real checkpoints are exported by Folio itself (`folio export-model`),
whose tests are test/model-export-package.test.ts and test/model-export-real-width.test.ts."""
import filecmp
import json
import tempfile
import unittest
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parents[1]

from folio_model import build_tiny
from folio_model.onnx_export import half_weights


class HalfWeights(unittest.TestCase):
    def test_bf16_weights_in_fp16_range_are_kept_exactly(self):
        bf16 = torch.tensor([0.1, -3.7, 1e-3, 2.5e-5, 60000.0]).bfloat16().float().numpy()
        self.assertTrue(np.array_equal(half_weights("w", bf16).astype(np.float32), bf16))

    def test_a_weight_beyond_fp16_range_is_refused_by_name(self):
        with self.assertRaisesRegex(ValueError, r"weight model\.norm\.weight: \|value\| 7e\+04 exceeds .*--precision fp32"):
            half_weights("model.norm.weight", np.array([1.0, -70000.0], dtype=np.float32))


class TinyFixture(unittest.TestCase):
    def test_rebuilding_the_tiny_package_gives_identical_bytes(self):
        self.assert_rebuilds_identically("fp32", HERE / "fixtures" / "tiny")

    def test_rebuilding_the_fp16_tiny_package_gives_identical_bytes(self):
        self.assert_rebuilds_identically("fp16", HERE / "fixtures" / "tiny-fp16")

    def assert_rebuilds_identically(self, dtype: str, committed: Path):
        """The package's files byte for byte; the PyTorch reference's parity outputs to float
        rounding, which follows the BLAS kernels the machine's CPU selects (about 1e-6 apart in fp32,
        a step of half precision now and then in fp16)."""
        tolerance = {"fp32": 1e-5, "fp16": 2.0 ** -10}[dtype]
        with tempfile.TemporaryDirectory() as scratch:
            build_tiny.main(["--dtype", dtype, "--out", scratch])
            for sub in ("", "parity"):
                names = sorted(p.name for p in (committed / sub).iterdir() if p.is_file())
                self.assertEqual(names, sorted(p.name for p in (Path(scratch) / sub).iterdir() if p.is_file()))
                match, mismatch, errors = filecmp.cmpfiles(committed / sub, Path(scratch) / sub, names, shallow=False)
                self.assertEqual(errors, [])
                if sub == "parity":
                    for name in mismatch:
                        self.assert_parity_close(committed / sub / name, Path(scratch) / sub / name, tolerance)
                else:
                    self.assertEqual(mismatch, [], "differs from the committed fixture")

    def assert_parity_close(self, committed: Path, rebuilt: Path, tolerance: float):
        if committed.suffix == ".f32":
            want, got = np.fromfile(committed, np.float32), np.fromfile(rebuilt, np.float32)
            self.assertEqual(want.shape, got.shape, committed.name)
            self.assertLessEqual(float(np.abs(want - got).max()), tolerance * max(1.0, float(np.abs(want).max())), committed.name)
            return
        self.assertEqual(committed.name, "parity.json")
        want, got = json.loads(committed.read_text()), json.loads(rebuilt.read_text())
        self.assert_same_up_to_rounding(want, got, "parity.json")

    def assert_same_up_to_rounding(self, want, got, where: str):
        if isinstance(want, float) and isinstance(got, float):
            self.assertAlmostEqual(want, got, delta=1e-4, msg=where)
        elif isinstance(want, dict) and isinstance(got, dict):
            self.assertEqual(sorted(want), sorted(got), where)
            for key in want:
                self.assert_same_up_to_rounding(want[key], got[key], f"{where}/{key}")
        elif isinstance(want, list) and isinstance(got, list):
            self.assertEqual(len(want), len(got), where)
            for i, (a, b) in enumerate(zip(want, got)):
                self.assert_same_up_to_rounding(a, b, f"{where}[{i}]")
        else:
            self.assertEqual(want, got, where)


if __name__ == "__main__":
    unittest.main()
