import json
import math
import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

from folio_model import random_checkpoint
from folio_model.byte_bpe import BOS, EOS, PAD
from folio_model.checkpoint import expected_tensors
from folio_model.config import ConfigError, ModelConfig, sizes_from_dict
from folio_model.package import SPECIAL_TOKENS
from folio_model.safetensors_io import INDEX_FILE, bf16_to_fp32, read_header

DATA = HERE / "data"
# this clone's own npm packages (tools/model/tests/ is three folders down)
TOKENIZERS_JS = Path(__file__).resolve().parents[3] / "node_modules/@huggingface/tokenizers/dist/tokenizers.mjs"
# Under CI (CI=true) what a test needs is there or the test fails: test/environment.ts
UNDER_CI = os.environ.get("CI") == "true"
SHARD = 300_000_000


def read_tensor(path: Path, name: str) -> np.ndarray:
    """One tensor's values from a shard, reading only its bytes."""
    header = read_header(path)
    info = header[name]
    begin, end = info["data_offsets"]
    with open(path, "rb") as f:
        header_len = int.from_bytes(f.read(8), "little")
        f.seek(8 + header_len + begin)
        raw = np.frombuffer(f.read(end - begin), dtype="<u2")
    return bf16_to_fp32(raw).reshape(info["shape"])


class TwoLayerRealWidthCheckpoint(unittest.TestCase):
    """jina-ocr-v1's config, 2 decoder layers, SAM and CLIP 2 layers each, the MTP head."""

    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp())
        code = random_checkpoint.main([
            "--config", str(DATA / "jina-ocr-v1.config.json"), "--layers", "2", "--mtp", "--sam-layers", "2",
            "--clip-layers", "2", "--seed", "3", "--shard-size", str(SHARD), "--out", str(cls.dir)])
        assert code == 0
        cls.raw_config = json.loads((cls.dir / "config.json").read_text())
        cls.index = json.loads((cls.dir / INDEX_FILE).read_text())
        cls.headers = {file: read_header(cls.dir / file) for file in sorted(set(cls.index["weight_map"].values()))}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def stored(self) -> dict[str, dict]:
        return {name: info for header in self.headers.values() for name, info in header.items()
                if name != "__metadata__"}

    def test_config_round_trips_with_the_reduced_depths(self):
        cfg = ModelConfig.from_dict(self.raw_config)  # strict: written configs parse
        self.assertEqual((cfg.decoder.num_hidden_layers, cfg.sam.depth, cfg.clip.num_layers, cfg.num_mtp_heads),
                         (2, 2, 2, 1))
        self.assertEqual(cfg.sam.global_attn_indexes, (1,))
        self.assertEqual(cfg.decoder.hidden_size, 1280)
        self.assertEqual(self.raw_config["language_config"]["num_hidden_layers"], 2)
        self.assertEqual(ModelConfig.from_dict(cfg.to_dict()), cfg)

    def test_names_and_shapes_are_the_reference_models(self):
        expected = expected_tensors(ModelConfig.from_dict(self.raw_config))
        stored = self.stored()
        self.assertEqual(sorted(stored), sorted(expected))
        for name, info in stored.items():
            self.assertEqual(tuple(info["shape"]), expected[name], name)
            self.assertEqual(info["dtype"], "BF16", name)

    def test_layer_zero_is_dense_and_layer_one_moe_at_the_real_width(self):
        stored = self.stored()
        shape = lambda name: tuple(stored[name]["shape"])  # noqa: E731
        self.assertEqual(shape("model.layers.0.mlp.gate_proj.weight"), (6848, 1280))
        self.assertNotIn("model.layers.0.mlp.gate.weight", stored)
        self.assertEqual(shape("model.layers.1.mlp.gate.weight"), (64, 1280))
        self.assertEqual(shape("model.layers.1.mlp.experts.63.down_proj.weight"), (1280, 896))
        self.assertEqual(shape("model.layers.1.mlp.shared_experts.up_proj.weight"), (1792, 1280))
        self.assertEqual(shape("lm_head.weight"), (129280, 1280))
        self.assertEqual(shape("model.sam_model.blocks.0.attn.rel_pos_h"), (27, 64))  # windowed
        self.assertEqual(shape("model.sam_model.blocks.1.attn.rel_pos_h"), (127, 64))  # global
        self.assertNotIn("model.sam_model.blocks.2.norm1.weight", stored)
        self.assertNotIn("model.vision_model.transformer.layers.2.mlp.fc1.weight", stored)
        self.assertEqual(shape("mtp_module.heads.0.eh_proj.weight"), (1280, 2560))
        self.assertEqual(shape("mtp_module.heads.0.mtp_block.mlp.down_proj.weight"), (1280, 6848))

    def test_shards_are_bounded_and_indexed(self):
        self.assertGreater(len(self.headers), 2)
        total = 0
        for file, header in self.headers.items():
            size = (self.dir / file).stat().st_size
            names = [n for n in header if n != "__metadata__"]
            self.assertTrue(size <= SHARD + 100_000 or len(names) == 1, f"{file}: {size} bytes")
            for name in names:
                self.assertEqual(self.index["weight_map"][name], file)
                begin, end = header[name]["data_offsets"]
                total += end - begin
        self.assertEqual(total, self.index["metadata"]["total_size"])
        self.assertEqual(set(self.index["weight_map"]), set(self.stored()))

    def test_weights_have_the_documented_scales(self):
        def values(name):
            return read_tensor(self.dir / self.index["weight_map"][name], name)
        np.testing.assert_array_equal(values("model.layers.1.input_layernorm.weight"), 1.0)
        np.testing.assert_array_equal(values("model.sam_model.neck.1.bias"), 0.0)
        gate = values("model.layers.1.mlp.gate.weight")
        self.assertAlmostEqual(float(gate.std()), 0.02, delta=0.001)
        self.assertAlmostEqual(float(gate.mean()), 0.0, delta=0.001)

    def test_tokenizer_has_the_special_tokens_at_their_published_ids(self):
        tokenizer = json.loads((self.dir / "tokenizer.json").read_text())
        vocab = tokenizer["model"]["vocab"]
        self.assertEqual([vocab[t] for t in SPECIAL_TOKENS], list(range(128815, 128827)))
        self.assertEqual([vocab[t] for t in (BOS, EOS, PAD)], [0, 1, 2])
        self.assertEqual(sorted(vocab.values()), list(range(128827)))
        added = {t["content"]: t["id"] for t in tokenizer["added_tokens"]}
        self.assertEqual(added["<|Assistant|>"], 128826)

    @unittest.skipUnless(UNDER_CI or (shutil.which("node") and TOKENIZERS_JS.exists()), "node or @huggingface/tokenizers missing (npm ci)")
    def test_tokenizer_loads_in_huggingface_tokenizers_js(self):
        script = (f"import {{ readFileSync }} from 'node:fs'; import {{ Tokenizer }} from '{TOKENIZERS_JS}';"
                  "const t = new Tokenizer(JSON.parse(readFileSync(process.argv[1], 'utf8')), {});"
                  "const text = '<image>\\n<|grounding|>Convert the document: <td>7</td> ümlaut.';"
                  "const ids = t.encode(text, { add_special_tokens: false }).ids;"
                  "console.log(JSON.stringify({ ids, back: t.decode(ids, { skip_special_tokens: false }) }));")
        out = subprocess.run(["node", "--input-type=module", "-e", script, str(self.dir / "tokenizer.json")],
                             capture_output=True, text=True, timeout=120, check=True).stdout
        result = json.loads(out)
        self.assertEqual(result["ids"][0], 128815)
        self.assertTrue({128820, 128821, 128822} <= set(result["ids"]), result["ids"])
        self.assertEqual(result["back"], "<image>\n<|grounding|>Convert the document: <td>7</td> ümlaut.")

    def test_model_card_and_chat_template(self):
        self.assertTrue((self.dir / "README.md").read_text().startswith("---\nlicense: mit\n---\n"))
        self.assertIn("<|Assistant|>", (self.dir / "chat_template.jinja").read_text())


class Plans(unittest.TestCase):
    def test_the_full_deepseek_ocr_plan_matches_the_published_weight_table(self):
        # 2710 tensors and 3,336,106,240 parameters: the published model.safetensors's own table
        tensors = expected_tensors(ModelConfig.from_dict(json.loads((DATA / "deepseek-ocr.config.json").read_text())))
        self.assertEqual(len(tensors), 2710)
        self.assertEqual(sum(math.prod(s) for s in tensors.values()), 3_336_106_240)
        counts = {p: sum(n.startswith(p) for n in tensors) for p in ("model.sam_model.", "model.vision_model.",
                                                                       "model.layers.")}
        self.assertEqual(counts, {"model.sam_model.": 179, "model.vision_model.": 293, "model.layers.": 2231})
        self.assertEqual(tensors["model.sam_model.pos_embed"], (1, 64, 64, 768))
        self.assertEqual(tensors["model.vision_model.embeddings.position_embedding.weight"], (257, 1024))
        self.assertEqual(tensors["model.projector.layers.weight"], (1280, 2048))
        shards = random_checkpoint.plan_shards(tensors, 2_000_000_000)
        self.assertEqual(len(shards), 4)

    def test_layers_override_every_place_the_config_states_them(self):
        raw = json.loads((DATA / "deepseek-ocr.config.json").read_text())
        reduced = random_checkpoint.reduced_config(raw, 3, True, 4, 1)
        self.assertEqual((reduced["num_hidden_layers"], reduced["language_config"]["num_hidden_layers"]), (3, 3))
        cfg = ModelConfig.from_dict(reduced)
        self.assertEqual((cfg.decoder.num_hidden_layers, cfg.num_mtp_heads, cfg.sam.depth, cfg.clip.num_layers),
                         (3, 1, 4, 1))
        self.assertEqual(cfg.sam.global_attn_indexes, (2,))

    def test_folio_form_configs_take_reduced_vision_depth(self):
        reduced = random_checkpoint.reduced_config(ModelConfig().to_dict(), 2, False, 3, 2)
        cfg = ModelConfig.from_dict(reduced)
        self.assertEqual((cfg.decoder.num_hidden_layers, cfg.sam.depth, cfg.sam.global_attn_indexes,
                          cfg.clip.num_layers), (2, 3, (2,), 2))

    def test_a_config_the_exporter_refuses_still_has_sizes(self):
        raw = json.loads((DATA / "jina-ocr-v1.config.json").read_text())
        raw.update(scoring_func="sigmoid", num_nextn_predict_layers=2, mtp_num_heads=2, brand_new_field=True)
        reduced = random_checkpoint.reduced_config(raw, 2, False, None, None)
        self.assertEqual(sizes_from_dict(reduced).num_mtp_heads, 2)
        with self.assertRaises(ConfigError):
            ModelConfig.from_dict(reduced)

    def test_a_tensor_depends_on_seed_and_name_only(self):
        def first(name, seed):
            return next(random_checkpoint.tensor_chunks(name, (4, 8), seed, set()))
        np.testing.assert_array_equal(first("model.norm.x", 1), first("model.norm.x", 1))
        self.assertFalse(np.array_equal(first("model.norm.x", 1), first("model.norm.x", 2)))
        self.assertFalse(np.array_equal(first("model.norm.x", 1), first("model.norm.y", 1)))


if __name__ == "__main__":
    unittest.main()
