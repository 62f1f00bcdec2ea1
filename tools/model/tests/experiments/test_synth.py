"""Synthetic pages and the nano tokenizer: deterministic, split-separated, Markdown that matches what
is drawn, and a tokenizer that round-trips page text."""
from __future__ import annotations

import random
import re
import unittest

import numpy as np

from experiments.synth.content import WORDS_FILE, Paragraph, block_markdown, table
from experiments.synth.latex import Atom, random_formula, to_latex
from experiments.synth.render import PAGE_PX, make_page
from experiments.synth.tokenizer import nano_tokenizer
from folio_model.byte_bpe import decode, encode


class PageTest(unittest.TestCase):
    def test_same_split_and_index_give_the_same_page(self) -> None:
        a, b = make_page("heldout", 7), make_page("heldout", 7)
        self.assertEqual(a.markdown, b.markdown)
        self.assertTrue(np.array_equal(np.asarray(a.image), np.asarray(b.image)))

    def test_splits_share_no_pages(self) -> None:
        train = {make_page("train", i).markdown for i in range(20)}
        heldout = {make_page("heldout", i).markdown for i in range(20)}
        self.assertFalse(train & heldout)

    def test_page_has_ink_and_its_markdown_has_every_kind_of_block_over_a_few_pages(self) -> None:
        pages = [make_page("heldout", i) for i in range(30)]
        self.assertEqual(pages[0].image.size, (PAGE_PX, PAGE_PX))
        for page in pages:
            grey = np.asarray(page.image.convert("L"))
            self.assertLess(grey.min(), 100, "some text is drawn")
            self.assertTrue(page.markdown.strip())
        text = "\n".join(p.markdown for p in pages)
        for marker in ("# ", "<table><tr><td>", "$$", "- ", "1. "):
            self.assertIn(marker, text)
        self.assertRegex(text, r"[a-z] \$[^$]+\$ [a-z]", "an inline formula inside a paragraph")

    def test_words_come_from_the_word_list(self) -> None:
        words = set(WORDS_FILE.read_text().split())
        rng = random.Random(3)
        for _ in range(20):
            markdown = block_markdown(table(rng))
            for cell in re.findall(r"<td>(.*?)</td>", markdown):
                if cell[0].isalpha():
                    self.assertTrue(cell.lower() in words, cell)


class LatexTest(unittest.TestCase):
    def test_scripts_get_braces_only_when_longer_than_one_character(self) -> None:
        formula = (Atom("sup", text="x", script="2"), Atom("op", text="+"), Atom("sub", text="a", script="12"),
                   Atom("op", text="="), Atom("greek", text="alpha"))
        self.assertEqual(to_latex(formula), "x^2 + a_{12} = \\alpha")

    def test_fractions_only_in_display_formulas(self) -> None:
        rng = random.Random(5)
        inline = "".join(to_latex(random_formula(rng, display=False)) for _ in range(200))
        display = "".join(to_latex(random_formula(rng, display=True)) for _ in range(200))
        self.assertNotIn("\\frac", inline)
        self.assertIn("\\frac", display)

    def test_paragraph_markdown_wraps_inline_math_in_dollars(self) -> None:
        formula = (Atom("var", text="x"),)
        self.assertEqual(block_markdown(Paragraph(("Some", formula, "text."))), "Some $x$ text.")


class TokenizerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tokenizer = nano_tokenizer(pages=40, merges=120)

    def test_page_text_round_trips(self) -> None:
        for i in range(5):
            text = make_page("heldout", i).markdown
            self.assertEqual(decode(self.tokenizer, encode(self.tokenizer, text)), text)

    def test_merges_join_a_space_to_one_letter(self) -> None:
        text = make_page("heldout", 0).markdown
        self.assertLess(len(encode(self.tokenizer, text)), len(text.encode()))
        merged = [a + b for a, b in (m.split(" ") for m in self.tokenizer["model"]["merges"])]
        self.assertTrue(merged)
        self.assertTrue(all(len(piece) == 2 and piece[0] == "Ġ" and piece[1].isalpha() for piece in merged))

    def test_table_cell_tags_are_single_tokens(self) -> None:
        vocab = self.tokenizer["model"]["vocab"]
        self.assertEqual(encode(self.tokenizer, "<tr><td>"), [vocab["<tr>"], vocab["<td>"]])


if __name__ == "__main__":
    unittest.main()
