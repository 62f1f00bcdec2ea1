import copy
import json
import unittest
from pathlib import Path

from folio_model.config import ConfigError, ModelConfig, unknown_fields

DATA = Path(__file__).resolve().parent / "data"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def published(name: str) -> dict:
    """The reconstructed config.json of a published checkpoint (provenance: tests/data/README.md)."""
    return json.loads((DATA / f"{name}.config.json").read_text())


def with_field(raw: dict, path: str, value) -> dict:
    """A copy of `raw` with the dotted `path` set to `value`."""
    raw = copy.deepcopy(raw)
    *parents, leaf = path.split(".")
    node = raw
    for key in parents:
        node = node.setdefault(key, {})
    node[leaf] = value
    return raw


MTP_COUNT_KEYS = ("num_nextn_predict_layers", "mtp_num_heads", "num_mtp_heads")


def everywhere(raw: dict, path: str, value) -> dict:
    """`with_field`, but a decoder field without a section is set wherever the config repeats it
    (the top level, language_config, the MTP count's other spellings), so the value itself is tested."""
    if "." in path:
        return with_field(raw, path, value)
    aliases = MTP_COUNT_KEYS if path in MTP_COUNT_KEYS else (path,)
    raw = with_field(raw, path, value)
    for key in aliases:
        for prefix in ("", "language_config."):
            section = raw.get("language_config", {}) if prefix else raw
            if key in section:
                raw = with_field(raw, prefix + key, value)
    return raw


def refusal(raw: dict, **options) -> str:
    try:
        ModelConfig.from_dict(raw, **options)
    except ConfigError as error:
        return str(error)
    raise AssertionError("the config was accepted")


# Each value selects arithmetic Folio does not implement; (path, value).
REFUSED = [
    ("scoring_func", "sigmoid"),
    ("language_config.scoring_func", "sigmoid"),
    ("topk_method", "group_limited_greedy"),
    ("topk_method", "noaux_tc"),
    ("n_group", 8),
    ("topk_group", 4),
    ("moe_layer_freq", 2),
    ("rope_scaling", {"type": "yarn", "factor": 4.0}),
    ("sliding_window", 128),
    ("language_config.sliding_window_size", 128),
    ("use_sliding_window", True),
    ("hidden_act", "gelu"),
    ("attention_bias", True),
    ("mlp_bias", True),
    ("use_mla", True),
    ("kv_lora_rank", 512),
    ("q_lora_rank", 1536),
    ("qk_nope_head_dim", 128),
    ("qk_rope_head_dim", 64),
    ("v_head_dim", 128),
    ("tie_word_embeddings", True),
    ("lm_head", False),
    ("rm_head", True),
    ("n_shared_experts", None),
    ("n_routed_experts", None),
    ("mtp_moe", True),
    ("mtp_recursive", False),
    ("mtp_share_embedding_weights", False),
    ("mtp_share_lm_head", False),
    ("mtp_share_norm", False),
    ("num_nextn_predict_layers", 2),
    ("image_token_index", 100015),
    ("candidate_resolutions", [[640, 640], [1024, 1024]]),
    ("global_view_pos", "tail"),
    ("tile_tag", "1D"),
    ("vision_config.model_name", "siglip_so400m"),
    ("vision_config.width.sam_vit_b.global_attn_indexes", [2, 5, 8, 14]),
    ("vision_config.width.sam_vit_b.downsample_channels", [512]),
    ("vision_config.width.sam_vit_b.heads", 7),
    ("vision_config.width.clip-l-14-224.layers", "24"),
    ("projector_config.projector_type", "mlp_gelu"),
    ("projector_config.input_dim", 2304),
    ("projector_config.n_embed", 2048),
    ("num_key_value_heads", 3),
    ("vision_config.width.clip-l-14-224.heads", 5),
]


class PublishedConfigs(unittest.TestCase):
    def test_deepseek_ocr_parses_to_the_published_sizes(self):
        cfg = ModelConfig.from_dict(published("deepseek-ocr"))
        self.assertEqual(cfg, ModelConfig())  # the defaults are DeepSeek-OCR's
        self.assertEqual(cfg.decoder.rope_theta, 10000.0)
        self.assertEqual(cfg.num_mtp_heads, 0)

    def test_jina_ocr_v1_parses_with_its_theta_context_and_head(self):
        cfg = ModelConfig.from_dict(published("jina-ocr-v1"))
        self.assertEqual(cfg.decoder.rope_theta, 1e6)
        self.assertEqual(cfg.decoder.max_position_embeddings, 32768)
        self.assertEqual(cfg.num_mtp_heads, 1)
        self.assertEqual((cfg.sam, cfg.clip), (ModelConfig().sam, ModelConfig().clip))

    def test_the_tiny_package_architecture_parses(self):
        manifest = json.loads((FIXTURES / "tiny" / "manifest.json").read_text())
        cfg = ModelConfig.from_dict(manifest["architecture"])
        self.assertEqual(cfg.sam.depth, 3)
        self.assertEqual(json.loads(json.dumps(cfg.to_dict())), manifest["architecture"])

    def test_round_trip_through_to_dict(self):
        cfg = ModelConfig.from_dict(published("jina-ocr-v1"))
        self.assertEqual(ModelConfig.from_dict(cfg.to_dict()), cfg)


class HonouredFields(unittest.TestCase):
    def test_vision_config_sets_sam_and_clip_sizes(self):
        raw = with_field(published("deepseek-ocr"), "vision_config.width.sam_vit_b.layers", 24)
        raw = with_field(raw, "vision_config.width.sam_vit_b.global_attn_indexes", [5, 11, 17, 23])
        raw = with_field(raw, "vision_config.width.clip-l-14-224.layers", 2)
        raw = with_field(raw, "vision_config.width.sam_vit_b.downsample_channels", [512, 768])
        raw = with_field(raw, "projector_config.input_dim", 1024 + 768)
        cfg = ModelConfig.from_dict(raw)
        self.assertEqual(cfg.sam.depth, 24)
        self.assertEqual(cfg.sam.global_attn_indexes, (5, 11, 17, 23))
        self.assertEqual(cfg.sam.net_3_chans, 768)
        self.assertEqual(cfg.clip.num_layers, 2)
        self.assertEqual(cfg.projector_input_dim, 1792)

    def test_decoder_fields_at_the_top_level_alone_are_read(self):
        raw = published("deepseek-ocr")
        del raw["language_config"]
        raw = with_field(raw, "num_hidden_layers", 2)
        self.assertEqual(ModelConfig.from_dict(raw).decoder.num_hidden_layers, 2)

    def test_null_means_the_default(self):
        cfg = ModelConfig.from_dict(with_field(published("deepseek-ocr"), "language_config.rope_theta", None))
        self.assertEqual(cfg.decoder.rope_theta, 10000.0)

    def test_fields_without_arithmetic_are_ignored(self):
        raw = with_field(published("jina-ocr-v1"), "mtp_num_speculative_steps", 5)
        raw = with_field(raw, "vision_config.mlp_ratio", 4.0)
        raw = with_field(raw, "aux_loss_alpha", 0.001)
        self.assertEqual(ModelConfig.from_dict(raw), ModelConfig.from_dict(published("jina-ocr-v1")))


class RefusedFields(unittest.TestCase):
    def test_each_refused_value_is_named_with_its_path_and_value(self):
        for base in ("deepseek-ocr", "jina-ocr-v1"):
            for path, value in REFUSED:
                with self.subTest(config=base, field=path, value=value):
                    message = refusal(everywhere(published(base), path, value))
                    shown = "null" if value is None else repr(value)
                    names = MTP_COUNT_KEYS if path in MTP_COUNT_KEYS else (path,)
                    self.assertTrue(any(f"{name} = {shown}" in message for name in names), message)
                    self.assertNotIn("contradicts", message)

    def test_a_contradiction_names_both_places(self):
        message = refusal(with_field(published("deepseek-ocr"), "language_config.num_hidden_layers", 24))
        self.assertIn("language_config.num_hidden_layers = 24 contradicts num_hidden_layers = 12", message)

    def test_a_refusal_says_what_is_supported(self):
        message = refusal(with_field(published("jina-ocr-v1"), "scoring_func", "sigmoid"))
        self.assertIn("scoring_func = 'sigmoid' is not supported: Folio implements 'softmax'", message)

    def test_every_problem_is_listed_at_once(self):
        raw = with_field(published("jina-ocr-v1"), "hidden_act", "gelu")
        raw = with_field(raw, "rope_scaling", {"type": "linear", "factor": 2.0})
        with self.assertRaises(ConfigError) as caught:
            ModelConfig.from_dict(raw)
        self.assertEqual(len(caught.exception.problems), 2)
        self.assertIsInstance(caught.exception, ValueError)


class UnknownFields(unittest.TestCase):
    PATHS = ("use_flash_attention", "language_config.qk_layernorm", "vision_config.width.sam_vit_b.drop_path",
             "vision_config.width.siglip", "projector_config.depth")

    def test_an_unknown_field_anywhere_is_refused_by_its_path(self):
        for path in self.PATHS:
            with self.subTest(field=path):
                message = refusal(with_field(published("deepseek-ocr"), path, 1))
                self.assertIn(f"- {path}: unknown field", message)
                self.assertIn("--allow-unknown-config", message)

    def test_allowed_unknown_fields_are_skipped_and_listed(self):
        raw = published("jina-ocr-v1")
        for path in self.PATHS:
            raw = with_field(raw, path, 1)
        self.assertEqual(ModelConfig.from_dict(raw, allow_unknown=True),
                         ModelConfig.from_dict(published("jina-ocr-v1")))
        self.assertEqual(sorted(unknown_fields(raw)), sorted(self.PATHS))

    def test_allowing_unknown_fields_still_refuses_known_bad_values(self):
        raw = with_field(with_field(published("jina-ocr-v1"), "x_new", 1), "topk_method", "noaux_tc")
        self.assertIn("topk_method = 'noaux_tc'", refusal(raw, allow_unknown=True))


if __name__ == "__main__":
    unittest.main()
