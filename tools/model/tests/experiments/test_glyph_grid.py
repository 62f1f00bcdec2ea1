"""Glyph classes and cells, as the glyph head's targets use them."""
from __future__ import annotations

import unittest

from experiments.glyph_grid import GLYPH_CLASSES, glyph_class, grid_cell, ordered_glyph
from experiments.synth.render import PAGE_PX, make_page


class GlyphGridTest(unittest.TestCase):
    def test_every_character_the_pages_draw_has_a_class_of_its_own(self) -> None:
        drawn = {char for i in range(30) for char, _, _ in make_page("heldout", i).glyphs}
        self.assertTrue({"σ", "√", "−"} & drawn, "the pages drew no math glyphs to check")
        self.assertEqual([c for c in drawn if glyph_class(c) == GLYPH_CLASSES - 1], [])
        self.assertEqual(len({glyph_class(c) for c in drawn}), len(drawn))

    def test_a_cells_two_halves_are_told_apart(self) -> None:
        cell = PAGE_PX / 16
        left, right = ordered_glyph("a", 3 * cell + 2, 16, PAGE_PX), ordered_glyph("a", 4 * cell - 2, 16, PAGE_PX)
        self.assertEqual((left, right), (glyph_class("a"), GLYPH_CLASSES + glyph_class("a")))
        self.assertEqual(grid_cell(3 * cell + 2, 5, 16, PAGE_PX), grid_cell(4 * cell - 2, 5, 16, PAGE_PX))


if __name__ == "__main__":
    unittest.main()
