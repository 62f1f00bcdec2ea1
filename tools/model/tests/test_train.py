"""Main-model training pieces: paper embeds to nothing, and a vision reset keeps the decoder."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from folio_model.model import DeepseekOCRForCausalLM  # noqa: E402
from nano import nano_config  # noqa: E402
from train import blank_patches_embed_to_zero, reset_vision  # noqa: E402


class TrainTest(unittest.TestCase):
    def test_a_white_patch_embeds_to_zero_and_ink_does_not(self) -> None:
        model = DeepseekOCRForCausalLM(nano_config(300))
        blank_patches_embed_to_zero(model)
        white = torch.ones(1, 3, 256, 256)  # normalised white paper
        inked = white.clone()
        inked[:, :, 10:14, 10:40] = -1.0
        proj = model.model.sam_model.patch_embed.proj
        with torch.no_grad():
            self.assertLess(float(proj(white).abs().max()), 1e-5)
            self.assertGreater(float(proj(inked).abs().max()), 0.1)

    def test_vision_reset_changes_the_encoder_and_keeps_the_decoder(self) -> None:
        model = DeepseekOCRForCausalLM(nano_config(300))
        before = {n: t.clone() for n, t in model.state_dict().items()}
        reset_vision(model, seed=7)
        after = model.state_dict()
        self.assertFalse(torch.equal(before["model.sam_model.blocks.0.attn.qkv.weight"],
                                     after["model.sam_model.blocks.0.attn.qkv.weight"]))
        self.assertTrue(torch.equal(before["model.layers.1.self_attn.q_proj.weight"],
                                    after["model.layers.1.self_attn.q_proj.weight"]))
        self.assertTrue(torch.equal(before["lm_head.weight"], after["lm_head.weight"]))


if __name__ == "__main__":
    unittest.main()
