import filecmp
import json
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

import build_tiny  # noqa: E402
import export  # noqa: E402
from folio_model.onnx_export import half_weights  # noqa: E402
from folio_model.package import sha256  # noqa: E402

FLOAT16, FLOAT, INT64 = onnx.TensorProto.FLOAT16, onnx.TensorProto.FLOAT, onnx.TensorProto.INT64


class Export(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        root = Path(cls.scratch.name)
        cls.checkpoint, cls.package = root / "checkpoint", root / "package"
        cls.checkpoint.mkdir()
        build_tiny.write_checkpoint(cls.checkpoint)
        cls.code = export.main(["--checkpoint", str(cls.checkpoint), "--out", str(cls.package),
                                "--dtype", "fp16", "--modes", "small", "--contrib-moe"])
        cls.manifest = json.loads((cls.package / "manifest.json").read_text())

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_one_command_writes_every_graph(self):
        self.assertEqual(self.code, 0)
        self.assertEqual(sorted(self.manifest["graphs"]),
                         ["decoder", "decoder_contrib_moe", "embedding", "mtp", "vision_640"])
        self.assertEqual(self.manifest["weights_licence"], "mit")
        self.assertEqual(self.manifest["prompt"]["kind"], "plain")

    def test_manifest_hashes_every_file(self):
        files = self.manifest["files"]
        self.assertIn("tokenizer.json", files)
        for name, digest in files.items():
            self.assertEqual(sha256(self.package / name), digest, name)

    def test_graphs_use_plain_opset_17_ops(self):
        plain = {name: graph for name, graph in self.manifest["graphs"].items() if "requires" not in graph}
        self.assertEqual(sorted(plain), ["decoder", "embedding", "mtp", "vision_640"])
        for name, graph in plain.items():
            model = onnx.load(str(self.package / graph["file"]))
            onnx.checker.check_model(model)
            self.assertEqual({n.domain for n in model.graph.node}, {""}, name)

    def test_contrib_decoder_uses_the_moe_op_in_every_moe_layer_only(self):
        graph = self.manifest["graphs"]["decoder_contrib_moe"]
        self.assertEqual(graph["requires"], ["com.microsoft.MoE"])
        model = onnx.load(str(self.package / graph["file"]))
        contrib = [n for n in model.graph.node if n.domain == "com.microsoft"]
        self.assertEqual({n.op_type for n in contrib}, {"MoE"})
        self.assertEqual(len(contrib), 2)  # layers 1 and 2; layer 0 is dense
        attributes = {a.name: onnx.helper.get_attribute_value(a) for a in contrib[0].attribute}
        self.assertEqual(attributes["normalize_routing_weights"], 0)
        self.assertEqual(attributes["k"], 2)

    def test_fp16_package_has_half_io_and_fp32_logits(self):
        model = onnx.load(str(self.package / "decoder.onnx"))
        types = {v.name: v.type.tensor_type.elem_type for v in [*model.graph.input, *model.graph.output]}
        self.assertEqual(types["inputs_embeds"], FLOAT16)
        self.assertEqual(types["past_key.0"], FLOAT16)
        self.assertEqual(types["present_value.2"], FLOAT16)
        self.assertEqual(types["position_ids"], INT64)
        self.assertEqual(types["logits"], FLOAT)
        declared = self.manifest["graphs"]["decoder"]
        self.assertEqual([s["name"] for s in declared["inputs"]], [v.name for v in model.graph.input])
        self.assertEqual([s["name"] for s in declared["outputs"]], [v.name for v in model.graph.output])

    def test_fp16_package_stores_weights_in_half_and_computes_in_float(self):
        # ONNX Runtime's CPU provider lacks fp16 kernels for several ops, and RMSNorm/softmax need fp32's
        # range: every fp16 value (weight or graph input) goes straight into a Cast to fp32, and the only
        # nodes writing fp16 are the Casts in front of the graph's outputs
        for name, graph in self.manifest["graphs"].items():
            model = onnx.load(str(self.package / graph["file"]))
            halves = {i.name for i in model.graph.initializer if i.data_type == FLOAT16}
            self.assertTrue(halves, name)
            self.assertFalse([i.name for i in model.graph.initializer if i.data_type == FLOAT], name)
            halves |= {v.name for v in model.graph.input if v.type.tensor_type.elem_type == FLOAT16}
            half_outputs = {v.name for v in model.graph.output if v.type.tensor_type.elem_type == FLOAT16}
            for node in model.graph.node:
                to = {a.name: a.i for a in node.attribute}.get("to")
                if halves & set(node.input):
                    self.assertEqual((node.op_type, to), ("Cast", FLOAT), f"{name}: {node.name} reads fp16")
                if node.op_type == "Cast" and to == FLOAT16:
                    self.assertTrue(set(node.output) <= half_outputs, f"{name}: {node.name} makes fp16 inside the graph")

    def test_gundam_tile_limit_is_an_option(self):
        options = export.package_options(export.parse_args(
            ["--checkpoint", str(self.checkpoint), "--out", "x", "--modes", "gundam,base", "--max-crops", "9"]))
        self.assertEqual([(m.name, m.crop, m.max_crops) for m in options.modes], [("gundam", True, 9), ("base", False, 9)])
        refused = export.package_options(export.parse_args(
            ["--checkpoint", str(self.checkpoint), "--out", "x", "--max-crops", "12"]))
        self.assertIn("--max-crops 12", refused)

    def test_unknown_mode_is_refused(self):
        self.assertEqual(export.main(["--checkpoint", str(self.checkpoint), "--out", str(self.package),
                                      "--modes", "huge"]), 2)


class HalfWeights(unittest.TestCase):
    def test_bf16_weights_in_fp16_range_are_kept_exactly(self):
        bf16 = torch.tensor([0.1, -3.7, 1e-3, 2.5e-5, 60000.0]).bfloat16().float().numpy()
        self.assertTrue(np.array_equal(half_weights("w", bf16).astype(np.float32), bf16))

    def test_a_weight_beyond_fp16_range_is_refused_by_name(self):
        with self.assertRaisesRegex(ValueError, r"weight model\.norm\.weight: \|value\| 7e\+04 exceeds .*--dtype fp32"):
            half_weights("model.norm.weight", np.array([1.0, -70000.0], dtype=np.float32))


class TinyFixture(unittest.TestCase):
    def test_rebuilding_the_tiny_package_gives_identical_bytes(self):
        self.assert_rebuilds_identically("fp32", HERE / "fixtures" / "tiny")

    def test_rebuilding_the_fp16_tiny_package_gives_identical_bytes(self):
        self.assert_rebuilds_identically("fp16", HERE / "fixtures" / "tiny-fp16")

    def assert_rebuilds_identically(self, dtype: str, committed: Path):
        with tempfile.TemporaryDirectory() as scratch:
            build_tiny.main(["--dtype", dtype, "--out", scratch])
            for sub in ("", "parity"):
                names = sorted(p.name for p in (committed / sub).iterdir() if p.is_file())
                self.assertEqual(names, sorted(p.name for p in (Path(scratch) / sub).iterdir() if p.is_file()))
                match, mismatch, errors = filecmp.cmpfiles(committed / sub, Path(scratch) / sub, names, shallow=False)
                self.assertEqual(mismatch + errors, [], f"differs from the committed fixture: {sub or '.'}")


if __name__ == "__main__":
    unittest.main()
