import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from folio_model.config import ModelConfig  # noqa: E402

# The shape of DeepSeek-OCR's config.json: decoder sizes under language_config, among other keys.
DEEPSEEK_OCR = {
    "model_type": "deepseek_vl_v2",
    "tile_tag": "2D",
    "language_config": {
        "hidden_size": 1280, "intermediate_size": 6848, "moe_intermediate_size": 896, "n_routed_experts": 64,
        "n_shared_experts": 2, "num_attention_heads": 10, "num_key_value_heads": 10, "num_experts_per_tok": 6,
        "num_hidden_layers": 12, "first_k_dense_replace": 1, "topk_method": "greedy", "use_mla": False,
        "vocab_size": 129280, "rope_theta": None, "torch_dtype": "bfloat16",
    },
}


class Config(unittest.TestCase):
    def test_decoder_sizes_come_from_language_config(self):
        cfg = ModelConfig.from_dict(DEEPSEEK_OCR)
        self.assertEqual(cfg.decoder.hidden_size, 1280)
        self.assertEqual(cfg.decoder.head_dim, 128)
        self.assertEqual(cfg.decoder.num_experts_per_tok, 6)
        self.assertEqual(cfg.decoder.rope_theta, 10000.0)  # null: the default
        self.assertFalse(cfg.decoder.norm_topk_prob)
        self.assertEqual(cfg.num_mtp_heads, 0)
        self.assertEqual(cfg.projector_input_dim, 2048)

    def test_jina_style_config_sets_theta_and_an_mtp_head(self):
        raw = {"text_config": {**DEEPSEEK_OCR["language_config"], "rope_theta": 1000000.0,
                               "max_position_embeddings": 32768, "num_nextn_predict_layers": 1}}
        cfg = ModelConfig.from_dict(raw)
        self.assertEqual(cfg.decoder.rope_theta, 1000000.0)
        self.assertEqual(cfg.decoder.max_position_embeddings, 32768)
        self.assertEqual(cfg.num_mtp_heads, 1)

    def test_round_trip_through_to_dict(self):
        cfg = ModelConfig.from_dict(DEEPSEEK_OCR)
        self.assertEqual(ModelConfig.from_dict(cfg.to_dict()), cfg)


if __name__ == "__main__":
    unittest.main()
