"""Main-model training pieces: paper embeds to nothing, a vision reset keeps the decoder, and a new run's
decoder can start from another run whose vision path has other sizes."""
from __future__ import annotations

import dataclasses
import sys
import tempfile
import unittest
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from folio_model.model import DeepseekOCRForCausalLM  # noqa: E402
from nano import nano_config  # noqa: E402
from train import blank_patches_embed_to_zero, init_decoder_from, reset_vision  # noqa: E402


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

    def test_a_decoder_starts_from_a_run_with_another_vision_path(self) -> None:
        config = nano_config(300)
        torch.manual_seed(1)
        other = DeepseekOCRForCausalLM(dataclasses.replace(config, sam=dataclasses.replace(config.sam, patch_size=16)))
        torch.manual_seed(2)
        model = DeepseekOCRForCausalLM(config)
        sam_before = model.state_dict()["model.sam_model.patch_embed.proj.weight"].clone()
        with tempfile.TemporaryDirectory() as scratch:
            torch.save({"model": other.state_dict()}, Path(scratch) / "checkpoint.pt")
            taken = init_decoder_from(model, Path(scratch) / "checkpoint.pt")
        after = model.state_dict()
        self.assertTrue(torch.equal(after["model.layers.2.mlp.experts.1.up_proj.weight"],
                                    other.state_dict()["model.layers.2.mlp.experts.1.up_proj.weight"]))
        self.assertTrue(torch.equal(after["lm_head.weight"], other.state_dict()["lm_head.weight"]))
        self.assertTrue(torch.equal(after["model.sam_model.patch_embed.proj.weight"], sam_before))
        self.assertGreater(taken, 10)


if __name__ == "__main__":
    unittest.main()
