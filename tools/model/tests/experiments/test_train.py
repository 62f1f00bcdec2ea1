"""Main-model training pieces: paper embeds to nothing, a vision reset keeps the decoder, and a new run's
run can start from another whose sizes differ, taking the tensors that still fit."""
from __future__ import annotations

import dataclasses
import tempfile
import unittest
from pathlib import Path

import torch

from experiments.nano import nano_config
from experiments.train import GlyphHead, blank_patches_embed_to_zero, init_from, reset_vision
from folio_model.model import DeepseekOCRForCausalLM


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

    def test_a_run_starts_from_one_with_other_sizes_where_tensors_still_fit(self) -> None:
        config = nano_config(300)
        torch.manual_seed(1)
        other = DeepseekOCRForCausalLM(dataclasses.replace(
            config, sam=dataclasses.replace(config.sam, patch_size=16),
            clip=dataclasses.replace(config.clip, num_layers=config.clip.num_layers - 1)))
        other_glyphs = GlyphHead(config.decoder.hidden_size)
        torch.manual_seed(2)
        model = DeepseekOCRForCausalLM(config)
        glyphs = GlyphHead(config.decoder.hidden_size)
        fresh = {n: t.clone() for n, t in model.state_dict().items()}
        with tempfile.TemporaryDirectory() as scratch:
            torch.save({"model": other.state_dict(), "glyph_head": other_glyphs.state_dict()}, Path(scratch) / "checkpoint.pt")
            taken = init_from(model, glyphs, Path(scratch) / "checkpoint.pt")
        theirs, after = other.state_dict(), model.state_dict()
        for name in ("model.layers.2.mlp.experts.1.up_proj.weight", "lm_head.weight",
                     "model.vision_model.transformer.layers.0.mlp.fc1.weight"):
            self.assertTrue(torch.equal(after[name], theirs[name]), name)
        last = f"model.vision_model.transformer.layers.{config.clip.num_layers - 1}.mlp.fc1.weight"
        for name in ("model.sam_model.patch_embed.proj.weight", last):
            self.assertTrue(torch.equal(after[name], fresh[name]), name)
        self.assertTrue(torch.equal(glyphs.read.weight, other_glyphs.read.weight))
        self.assertEqual(taken, sum(1 for n, t in theirs.items() if n in fresh and fresh[n].shape == t.shape))

if __name__ == "__main__":
    unittest.main()
