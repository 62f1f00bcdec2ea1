"""Spelt token parts: which characters a token has, and checkpoints that hold the plain model."""
from __future__ import annotations

import unittest

import torch

from experiments.glyph_grid import GLYPH_CLASSES
from experiments.nano import nano_config
from experiments.spelled_tokens import SpelledTokens, spelling_matrix
from folio_model.model import DeepseekOCRForCausalLM

TOKENIZER = {"model": {"vocab": {"<s>": 0, "a": 1, "Ġab": 2, "b": 3, "aa": 4, "é": 5}},
             "added_tokens": [{"id": 0, "content": "<s>"}]}


class SpelledTokensTest(unittest.TestCase):
    def test_a_token_spells_its_characters_without_the_space(self) -> None:
        matrix = spelling_matrix(TOKENIZER)
        a, b = ord("a") - 33, ord("b") - 33
        self.assertEqual(float(matrix[0].abs().sum()), 0.0)
        self.assertEqual(matrix[2].nonzero().flatten().tolist(), [a, b])
        self.assertAlmostEqual(float(matrix[2, a]), 2 ** -0.5)
        self.assertAlmostEqual(float(matrix[4, a]), 2 * 2 ** -0.5)
        self.assertEqual(matrix[5].nonzero().flatten().tolist(), [GLYPH_CLASSES - 1])  # a byte outside printable ASCII

    def test_the_saved_weights_give_the_trained_function_in_the_plain_model(self) -> None:
        torch.manual_seed(5)
        model = DeepseekOCRForCausalLM(nano_config(6))
        spelled = SpelledTokens(model, TOKENIZER)
        torch.nn.init.normal_(spelled.chars_in)
        torch.nn.init.normal_(spelled.chars_out)
        self.assertEqual([p.shape for p in spelled.parameters()], [spelled.chars_in.shape, spelled.chars_out.shape])
        ids, hidden = torch.tensor([[1, 2, 4]]), torch.randn(1, 3, model.config.decoder.hidden_size)
        plain = DeepseekOCRForCausalLM(nano_config(6))
        plain.load_state_dict(spelled.baked(model.state_dict()))
        with torch.no_grad():
            self.assertTrue(torch.allclose(model.model.embed_tokens(ids), plain.model.embed_tokens(ids), atol=1e-5))
            self.assertTrue(torch.allclose(model.lm_head(hidden), plain.lm_head(hidden), atol=1e-4))


if __name__ == "__main__":
    unittest.main()
