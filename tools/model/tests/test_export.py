import contextlib
import filecmp
import io
import json
import shutil
import tempfile
import unittest
from dataclasses import replace
from pathlib import Path

import numpy as np
import onnx
import torch

HERE = Path(__file__).resolve().parents[1]

from folio_model import build_tiny
from folio_model import export
from folio_model.onnx_export import half_weights
from folio_model.package import sha256
from folio_model.config import DecoderConfig
from folio_model.decoder_builder import PRECISIONS, ExpertLayout, expert_layout
from folio_model.quantize import quantise
from folio_model.safetensors_io import INDEX_FILE, read_checkpoint, write_sharded
from folio_model.stream_package import banned_token_ids

FLOAT16, FLOAT, INT64, UINT8 = (onnx.TensorProto.FLOAT16, onnx.TensorProto.FLOAT, onnx.TensorProto.INT64,
                                onnx.TensorProto.UINT8)


def load_graph(package: Path, file: str) -> onnx.ModelProto:
    return onnx.load(str(package / file), load_external_data=False)


class Export(unittest.TestCase):
    """The tiny checkpoint through `export.py` in each precision."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        root = Path(cls.scratch.name)
        cls.checkpoint = root / "checkpoint"
        cls.checkpoint.mkdir()
        build_tiny.write_checkpoint(cls.checkpoint)
        cls.packages, cls.codes = {}, {}
        for precision in ("fp32", "fp16", "int4"):
            cls.packages[precision] = root / precision
            cls.codes[precision] = export.main(["--checkpoint", str(cls.checkpoint), "--out", str(root / precision),
                                                "--precision", precision, "--modes", "small"])
        # one cache layout only, to compare the default (both layouts) with
        cls.single_layout = {}
        for precision, layout in (("fp32", "rows"), ("int4", "rows"), ("int4", "capacity")):
            out = root / f"{precision}-{layout}"
            cls.single_layout[precision, layout] = out
            assert export.main(["--checkpoint", str(cls.checkpoint), "--out", str(out), "--precision", precision,
                                "--modes", "small", "--cache-layout", layout]) == 0

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def manifest(self, precision: str) -> dict:
        return json.loads((self.packages[precision] / "manifest.json").read_text())

    def test_each_precision_writes_every_graph_and_says_what_it_is_for(self):
        providers = {"fp32": ["cpu", "cuda"], "fp16": ["cuda"], "int4": ["cpu", "webgpu", "cuda"]}
        for precision, package in self.packages.items():
            self.assertEqual(self.codes[precision], 0, precision)
            manifest = self.manifest(precision)
            self.assertEqual(sorted(manifest["graphs"]), ["decoder", "decoder_capacity", "embedding", "mtp", "vision_640"])
            self.assertEqual(manifest["precision"], precision)
            self.assertEqual(manifest["providers"], providers[precision])
            self.assertEqual(manifest["dtype"], "float16" if precision == "fp16" else "float32")

    def test_the_capacity_decoder_shares_the_rows_decoders_weights(self):
        for precision in ("fp32", "int4"):  # fp32 streams its experts (GraphWriter.weight_stream), int4 does not
            package, rows_only = self.packages[precision], self.single_layout[precision, "rows"]
            graphs = self.manifest(precision)["graphs"]
            self.assertEqual(graphs["decoder_capacity"]["file"], "decoder_capacity.onnx")
            self.assertIn("attention_bias", [i["name"] for i in graphs["decoder_capacity"]["inputs"]])
            self.assertNotIn("attention_bias", [i["name"] for i in graphs["decoder"]["inputs"]])
            # the rows decoder and its weights are byte for byte the single-layout package's
            for file in ("decoder.onnx", "decoder.onnx.data"):
                self.assertTrue(filecmp.cmp(package / file, rows_only / file, shallow=False), (precision, file))
            # the second graph adds its protobuf only: no weights file of its own, each of its
            # external weights where the rows decoder's same-named weight lies
            self.assertEqual(sorted(p.name for p in package.iterdir()),
                             sorted([p.name for p in rows_only.iterdir()] + ["decoder_capacity.onnx"]))
            placed = {t.name: list(t.external_data) for t in load_graph(package, "decoder.onnx").graph.initializer
                      if t.external_data}
            external = [t for t in load_graph(package, "decoder_capacity.onnx").graph.initializer if t.external_data]
            self.assertEqual(len(external), len(placed), precision)
            for tensor in external:
                self.assertEqual(list(tensor.external_data), placed[tensor.name], (precision, tensor.name))
            grown = sum(p.stat().st_size for p in package.iterdir()) - sum(p.stat().st_size for p in rows_only.iterdir())
            manifest_growth = (package / "manifest.json").stat().st_size - (rows_only / "manifest.json").stat().st_size
            self.assertEqual(grown, (package / "decoder_capacity.onnx").stat().st_size + manifest_growth, precision)

    def test_one_cache_layout_is_written_as_the_decoder(self):
        manifest = json.loads((self.single_layout["int4", "capacity"] / "manifest.json").read_text())
        self.assertEqual(sorted(manifest["graphs"]), ["decoder", "embedding", "mtp", "vision_640"])
        self.assertIn("attention_bias", [i["name"] for i in manifest["graphs"]["decoder"]["inputs"]])
        # WebGPU's resident cache appends rows: a package without the rows decoder is not for it
        self.assertEqual(manifest["providers"], ["cpu", "cuda"])

    def test_manifest_hashes_every_file_including_external_weights(self):
        for package in self.packages.values():
            files = self.manifest(package.name)["files"]
            self.assertIn("decoder.onnx.data", files)
            for name, digest in files.items():
                self.assertEqual(sha256(package / name), digest, name)

    def test_decoder_runs_only_the_routed_experts_through_fused_operators(self):
        for precision, moe in (("fp32", "MoE"), ("fp16", "MoE"), ("int4", "QMoE")):
            model = load_graph(self.packages[precision], "decoder.onnx")
            ops = [n.op_type for n in model.graph.node]
            self.assertEqual(ops.count(moe), 2, precision)  # layers 1 and 2; layer 0 is dense
            self.assertEqual(ops.count("MultiHeadAttention"), 3, precision)
            self.assertEqual(ops.count("RotaryEmbedding"), 6, precision)
            # the all-experts graph had hundreds of nodes per MoE layer
            self.assertLess(len(ops) / 3, 40, precision)
            attributes = {a.name: onnx.helper.get_attribute_value(a)
                          for a in next(n for n in model.graph.node if n.op_type == moe).attribute}
            self.assertEqual((attributes["k"], attributes["normalize_routing_weights"]), (2, 0))
            self.assertEqual(self.manifest(precision)["graphs"]["decoder"]["nodes"], len(ops))

    def test_int4_decoder_quantises_every_matrix_but_the_router(self):
        model = load_graph(self.packages["int4"], "decoder.onnx")
        ops = [n.op_type for n in model.graph.node]
        self.assertNotIn("MatMul", [op for op, n in zip(ops, model.graph.node) if not n.name.endswith(".router")])
        # per layer q|k|v fused, o, and two MLP projections (dense or shared experts), plus the lm_head
        self.assertEqual(ops.count("MatMulNBits"), 3 * 4 + 1)
        qmoe = next(n for n in model.graph.node if n.op_type == "QMoE")
        # 8-bit experts per column: the tiny widths (64 and 32) take none of MLAS's 4-bit blocks twice
        attributes = {a.name: onnx.helper.get_attribute_value(a) for a in qmoe.attribute}
        self.assertEqual((attributes["expert_weight_bits"], "block_size" in attributes), (8, False))
        weights = {i.name: i for i in model.graph.initializer}
        self.assertEqual(weights[qmoe.input[2]].data_type, UINT8)
        self.assertEqual(list(weights[qmoe.input[2]].dims)[1:], [2 * 32, 64])  # [experts, 2 x intermediate, hidden]: a byte a value
        self.assertEqual(self.manifest("int4")["graphs"]["decoder"]["routed_experts"],
                         {"bits": 8, "block_size": 0, "scales": "symmetric"})
        levels = {onnx.helper.get_attribute_value(a) for n in model.graph.node if n.op_type == "MatMulNBits"
                  for a in n.attribute if a.name == "accuracy_level"}
        self.assertEqual(levels, {4})

    def test_int4_vision_runs_its_linear_layers_as_8bit_matmulnbits(self):
        for precision in ("int4", "fp32"):
            vision = next(g["file"] for name, g in self.manifest(precision)["graphs"].items() if name.startswith("vision_"))
            model = load_graph(self.packages[precision], vision)
            nbits = [n for n in model.graph.node if n.op_type == "MatMulNBits"]
            if precision == "fp32":
                self.assertEqual(nbits, [])
                continue
            # the SAM blocks' linear layers (K 32 or 64); CLIP's are 48 wide, not a whole block of 32
            self.assertGreater(len(nbits), 0)
            for node in nbits:
                attributes = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
                self.assertEqual((attributes["bits"], attributes["block_size"], attributes["accuracy_level"]), (8, 32, 4))
                self.assertEqual(attributes["K"] % 32, 0)
            weights = {i.name for i in model.graph.initializer}
            self.assertTrue(all(node.input[1] in weights and node.input[1].endswith(".q8") for node in nbits))

    def test_expert_bits_4_packs_two_experts_values_a_byte(self):
        with tempfile.TemporaryDirectory() as scratch:
            self.assertEqual(export.main(["--checkpoint", str(self.checkpoint), "--out", scratch, "--precision", "int4",
                                          "--modes", "small", "--expert-bits", "4"]), 0)
            model = load_graph(Path(scratch), "decoder.onnx")
            manifest = json.loads((Path(scratch) / "manifest.json").read_text())
        qmoe = next(n for n in model.graph.node if n.op_type == "QMoE")
        self.assertEqual({a.name: onnx.helper.get_attribute_value(a) for a in qmoe.attribute}["expert_weight_bits"], 4)
        weights = {i.name: i for i in model.graph.initializer}
        self.assertEqual(list(weights[qmoe.input[2]].dims)[1:], [2 * 32, 32])
        # per column, as no MLAS block fits twice: the runtime keeps MLAS's kernel off for them
        self.assertEqual(manifest["graphs"]["decoder"]["routed_experts"], {"bits": 4, "block_size": 0, "scales": "symmetric"})

    def test_experts_take_the_largest_mlas_block_that_fits_twice(self):
        cases = {(1280, 896): (4, 128, True), (256, 128): (4, 64, True), (64, 32): (8, 0, False), (1280, 128): (4, 64, True)}
        for (hidden, inner), (bits, block, signed) in cases.items():
            cfg = replace(DecoderConfig(), hidden_size=hidden, moe_intermediate_size=inner)
            self.assertEqual(expert_layout(PRECISIONS["int4"], cfg), ExpertLayout(bits, block, signed), (hidden, inner))
        cfg = DecoderConfig()
        self.assertEqual(expert_layout(replace(PRECISIONS["int4"], expert_bits=8), cfg), ExpertLayout(8, 0, False))
        self.assertEqual(expert_layout(replace(PRECISIONS["int4"], expert_block_size=32), cfg), ExpertLayout(4, 32, True))
        self.assertEqual(expert_layout(replace(PRECISIONS["int4"], expert_block_size=16), cfg), ExpertLayout(4, 16, False))

    def test_fp16_package_keeps_fp16_weights_and_arithmetic(self):
        # nothing is widened at load: the only float32 weights are the routers, whose softmax the
        # reference computes in float32, and the graph's one float32 output is the logits
        model = load_graph(self.packages["fp16"], "decoder.onnx")
        wide = [i.name for i in model.graph.initializer if i.data_type == FLOAT and np.prod(i.dims) > 1]
        self.assertTrue(all(name.endswith(".gate.weight") for name in wide), wide)
        types = {v.name: v.type.tensor_type.elem_type for v in [*model.graph.input, *model.graph.output]}
        self.assertEqual((types["inputs_embeds"], types["past_key.0"], types["present_value.2"]), (FLOAT16,) * 3)
        self.assertEqual((types["position_ids"], types["logits"]), (INT64, FLOAT))

    def test_draft_head_reads_a_4bit_lm_head_in_every_precision(self):
        for precision, package in self.packages.items():
            model = load_graph(package, "mtp.onnx")
            head = next(n for n in model.graph.node if n.name == "lm_head")
            self.assertEqual(head.op_type, "MatMulNBits", precision)
            # int8 arithmetic only where the package's precision is int4: the float packages compute as before
            level = {a.name: onnx.helper.get_attribute_value(a) for a in head.attribute}.get("accuracy_level")
            self.assertEqual(level, 4 if precision == "int4" else None, precision)

    def test_tokenizer_ids_without_a_token_are_banned_in_the_manifest(self):
        self.assertNotIn("banned_ids", self.manifest("fp32")["decoding"])  # the tiny tokenizer covers its vocabulary
        tokenizer = {"model": {"vocab": {"a": 0, "b": 1, "c": 4}}, "added_tokens": [{"id": 5, "content": "<x>"}]}
        self.assertEqual(banned_token_ids(tokenizer, 9), [[2, 4], [6, 9]])

    def test_unknown_mode_is_refused(self):
        self.assertEqual(export.main(["--checkpoint", str(self.checkpoint), "--out", "x", "--modes", "huge"]), 2)

    def test_gundam_tile_limit_is_an_option(self):
        options = export.export_options(export.parse_args(
            ["--checkpoint", str(self.checkpoint), "--out", "x", "--modes", "gundam,base", "--max-crops", "9"]))
        self.assertEqual([(m.name, m.crop, m.max_crops) for m in options.package.modes],
                         [("gundam", True, 9), ("base", False, 9)])
        refused = export.export_options(export.parse_args(
            ["--checkpoint", str(self.checkpoint), "--out", "x", "--max-crops", "12"]))
        self.assertIn("--max-crops 12", refused)


class CheckpointTensors(unittest.TestCase):
    """What the exporter says about a checkpoint whose tensors are not what its config describes."""

    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory()
        cls.original = Path(cls.scratch.name) / "checkpoint"
        cls.original.mkdir()
        build_tiny.write_checkpoint(cls.original)
        cls.tensors = read_checkpoint(cls.original)

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def export_with(self, tensors: dict[str, np.ndarray], *flags: str) -> tuple[int, str]:
        with tempfile.TemporaryDirectory() as scratch:
            checkpoint = Path(scratch) / "checkpoint"
            shutil.copytree(self.original, checkpoint)
            for path in checkpoint.glob("*.safetensors"):
                path.unlink()
            (checkpoint / INDEX_FILE).unlink()
            write_sharded(checkpoint, tensors, shards=1, bf16=True)
            errors = io.StringIO()
            with contextlib.redirect_stderr(errors):
                code = export.main(["--checkpoint", str(checkpoint), "--out", str(Path(scratch) / "out"),
                                    "--modes", "tiny", *flags])
        return code, errors.getvalue()

    def test_extra_tensors_are_refused_by_name(self):
        code, message = self.export_with({**self.tensors, "model.layers.0.mlp.extra.weight": np.zeros(4, np.float32)})
        self.assertEqual(code, 1)
        self.assertIn("1 tensor(s) Folio does not know: model.layers.0.mlp.extra.weight", message)

    def test_a_draft_head_tensor_folio_cannot_map_is_refused_and_the_way_out_named(self):
        code, message = self.export_with({**self.tensors, "mtp_module.heads.0.shared_head.norm.weight": np.ones(64, np.float32)})
        self.assertEqual(code, 1)
        self.assertIn("mtp_module.heads.0.shared_head.norm.weight", message)
        self.assertIn("--without-draft-head", message)

    def test_without_draft_head_exports_the_base_model(self):
        tensors = {**self.tensors, "mtp_module.heads.0.shared_head.norm.weight": np.ones(64, np.float32)}
        with tempfile.TemporaryDirectory() as scratch:
            checkpoint = Path(scratch) / "checkpoint"
            shutil.copytree(self.original, checkpoint)
            for path in checkpoint.glob("*.safetensors"):
                path.unlink()
            write_sharded(checkpoint, tensors, shards=1, bf16=True)
            out = Path(scratch) / "out"
            code = export.main(["--checkpoint", str(checkpoint), "--out", str(out), "--modes", "tiny",
                                "--without-draft-head"])
            self.assertEqual(code, 0)
            manifest = json.loads((out / "manifest.json").read_text())
        self.assertNotIn("mtp", manifest["graphs"])
        self.assertEqual(manifest["architecture"]["num_mtp_heads"], 0)

    def test_missing_tensors_are_listed(self):
        tensors = {k: v for k, v in self.tensors.items() if not k.startswith("model.layers.2.mlp.experts.3.")}
        code, message = self.export_with(tensors)
        self.assertEqual(code, 1)
        self.assertIn("3 tensor(s) the config calls for are missing: model.layers.2.mlp.experts.3.down_proj.weight", message)

    def test_a_tensor_of_the_wrong_shape_is_named(self):
        tensors = dict(self.tensors)
        tensors["model.norm.weight"] = np.ones(65, np.float32)
        code, message = self.export_with(tensors)
        self.assertEqual(code, 1)
        self.assertIn("tensor model.norm.weight has shape [65], the config calls for [64]", message)


class Quantisation(unittest.TestCase):
    def test_each_block_errs_no_more_than_rounding_to_its_largest_value(self):
        weight = np.random.default_rng(0).standard_normal((48, 100)).astype(np.float32)
        q = quantise(weight, 32)
        self.assertEqual((q.packed.shape, q.scales.shape), ((48, 4, 16), (48, 4)))
        padded = np.pad(weight, ((0, 0), (0, 28))).reshape(48, 4, 32)
        plain = np.abs(padded).max(axis=-1, keepdims=True) / 7
        plain_error = ((np.clip(np.rint(padded / plain), -8, 7) * plain - padded) ** 2).sum(axis=-1)
        error = ((np.pad(q.dequantised(100), ((0, 0), (0, 28))).reshape(48, 4, 32) - padded) ** 2).sum(axis=-1)
        self.assertTrue(np.all(error <= plain_error + 1e-6))
        self.assertLess(error.sum(), plain_error.sum())

    def test_first_value_of_a_pair_is_the_low_nibble(self):
        q = quantise(np.array([[7.0, -7.0] + [0.0] * 30], dtype=np.float32), 32)
        low, high = np.rint(np.array([7.0, -7.0]) / q.scales[0, 0]).astype(int) + 8
        self.assertEqual(q.packed[0, 0, 0], low | (high << 4))


    def test_signed_scales_survive_mlas_repacking(self):
        # MLAS's 4-bit GEMM re-quantises each block from its dequantised values: scale = the value of
        # largest magnitude / -8, then round to nearest within [-8, 7]. Signed scales come back
        # unchanged; the symmetric ones round a second time.
        weight = np.random.default_rng(2).standard_normal((64, 256)).astype(np.float32)

        def repacked(values: np.ndarray, block: int) -> np.ndarray:
            blocks = values.reshape(values.shape[0], -1, block)
            peak = np.take_along_axis(blocks, np.abs(blocks).argmax(axis=-1)[..., None], axis=-1)
            scale = peak / -8
            q = np.clip(np.floor(blocks * np.where(scale == 0, 0, 1 / np.where(scale == 0, 1, scale)) + 8.5), 0, 15) - 8
            return (q * scale).reshape(values.shape)

        for block in (32, 64, 128):
            signed = quantise(weight, block, signed_scales=True).dequantised(256)
            symmetric = quantise(weight, block).dequantised(256)
            self.assertLess(np.abs(repacked(signed, block) - signed).max(), 1e-6 * np.abs(signed).max(), block)
            self.assertGreater(np.abs(repacked(symmetric, block) - symmetric).max(), 0.05 * np.abs(symmetric).max(), block)
            # and they err less: all sixteen levels are used
            self.assertLess(((signed - weight) ** 2).sum(), ((symmetric - weight) ** 2).sum(), block)

    def test_8bit_values_are_bytes_around_128_and_err_less_than_4bit(self):
        weight = np.random.default_rng(1).standard_normal((16, 64)).astype(np.float32)
        q8, q4 = quantise(weight, 64, bits=8), quantise(weight, 64)
        self.assertEqual(q8.packed.shape, (16, 1, 64))
        self.assertTrue(np.array_equal(q8.packed.reshape(16, 64).astype(int) - 128, np.clip(np.rint(weight / q8.scales), -128, 127).astype(int)))
        self.assertLess(np.abs(q8.dequantised(64) - weight).max(), np.abs(q4.dequantised(64) - weight).max() / 8)


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
