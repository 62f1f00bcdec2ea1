"""Guided attention: which visual tokens hold each text token's characters, and a loss that reads the
decoder head's real attention."""
from __future__ import annotations

import unittest
from unittest import mock

import torch

from experiments.attention_guide import AttentionGuide, token_cells
from experiments.nano import nano_config
from folio_model.model import DeepseekOCRForCausalLM


class TokenCellsTest(unittest.TestCase):
    def test_words_land_on_the_cells_under_their_characters_and_markup_on_none(self) -> None:
        # "# Big top" drawn as two words on one line, 10 pixels a character, on a 4x4 grid of 25 px
        glyphs = [("B", 5, 30), ("i", 15, 30), ("g", 25, 30), ("t", 55, 80), ("o", 65, 80), ("p", 75, 80)]
        cells = token_cells("# Big top", [1, 1, 3, 4], glyphs, side=4, page_px=100)
        self.assertEqual(cells, [set(), set(), {4, 5}, {3 * 4 + 2, 3 * 4 + 3}])

    def test_formula_glyphs_land_on_their_latex_and_undrawn_markup_on_none(self) -> None:
        # "$\\frac{a}{\\sigma^2}$" drawn as a over σ and a small 2: \\frac's "a" must not take the drawn a
        glyphs = [("a", 30, 10), ("σ", 30, 60), ("2", 60, 55)]
        markdown = "$\\frac{a}{\\sigma^2}$"
        pieces = ["$", "\\", "frac", "{", "a", "}{", "\\", "sigma", "^", "2", "}$"]
        self.assertEqual("".join(pieces), markdown)
        cells = token_cells(markdown, [len(p) for p in pieces], glyphs, side=2, page_px=100)
        self.assertEqual(cells, [set(), set(), set(), set(), {0}, set(), {2}, {2}, set(), {3}, set()])

    def test_table_tags_do_not_take_a_cells_letters(self) -> None:
        glyphs = [("t", 10, 10), ("d", 70, 10)]
        markdown = "<table><tr><td>t</td><td>d</td></tr></table>"
        pieces = ["<table>", "<tr>", "<td>", "t", "</td>", "<td>", "d", "</td>", "</tr>", "</table>"]
        cells = token_cells(markdown, [len(p) for p in pieces], glyphs, side=2, page_px=100)
        self.assertEqual(cells, [set(), set(), set(), {0}, set(), set(), {1}, set(), set(), set()])


class AttentionGuideTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        torch.manual_seed(3)
        cls.model = DeepseekOCRForCausalLM(nano_config(300)).eval()

    def head_attention(self, guide: AttentionGuide, embeds: torch.Tensor) -> torch.Tensor:
        """The layer's real attention probabilities `[b, heads, s, s]`, read from its softmax."""
        seen = []
        original = torch.Tensor.softmax

        def keep(tensor: torch.Tensor, *args, **kwargs):  # noqa: ANN002, ANN003
            out = original(tensor, *args, **kwargs)
            if out.dim() == 4 and out.shape[-1] == embeds.shape[1]:
                seen.append(out)
            return out
        with mock.patch.object(torch.Tensor, "softmax", keep), torch.no_grad():
            self.model.model(embeds, torch.arange(embeds.shape[1])[None])
        return seen[[layer.self_attn for layer in self.model.model.layers].index(guide.attention)]

    def test_the_loss_is_minus_the_log_of_the_heads_attention_on_the_targets(self) -> None:
        guide = AttentionGuide(self.model.model.layers[1].self_attn, head=2)
        embeds = torch.randn(1, 12, self.model.config.decoder.hidden_size)
        attention = self.head_attention(guide, embeds)[0, 2]
        targets = torch.zeros(1, 4, 12, dtype=torch.bool)
        targets[0, 0, [1, 3]] = True   # row 8
        targets[0, 2, 5] = True        # row 10; rows 9 and 11 have no target and are left out
        with torch.no_grad():
            loss = guide.loss(8, targets)
        expected = -(torch.log(attention[8, 1] + attention[8, 3]) + torch.log(attention[10, 5])) / 2
        self.assertAlmostEqual(float(loss), float(expected), places=5)

    def test_all_visible_keys_hold_all_the_attention(self) -> None:
        guide = AttentionGuide(self.model.model.layers[0].self_attn, head=0)
        with torch.no_grad():
            self.model.model(torch.randn(2, 9, self.model.config.decoder.hidden_size), torch.arange(9)[None].expand(2, -1))
            self.assertLess(abs(float(guide.loss(5, torch.ones(2, 4, 9, dtype=torch.bool)))), 1e-5)


if __name__ == "__main__":
    unittest.main()
