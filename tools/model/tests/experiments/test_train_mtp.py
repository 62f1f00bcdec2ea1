"""The FastMTP training pass computes, for every row at once, what the runtime's drafter computes
one row at a time with the head's key/value cache; its guided attention targets where each drafted
token is drawn."""
from __future__ import annotations

import unittest
from pathlib import Path

import torch

from experiments.glyph_grid import grid_cell
from experiments.nano import GRID_SIDE, cell_key, load_tokenizer, nano_config, nano_prompt
from experiments.synth.generate import make_page
from experiments.synth.render import PAGE_PX
from experiments.train_mtp import DistilBatch, chain_mask, head_step, mtp_loss, reading_targets
from folio_model.byte_bpe import encode
from folio_model.model import DeepseekOCRForCausalLM

NANO_PACKAGE = Path(__file__).resolve().parents[2] / "fixtures" / "nano"


class ChainTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        torch.manual_seed(0)
        cls.model = DeepseekOCRForCausalLM(nano_config(300)).eval()
        for p in cls.model.mtp_module.parameters():
            p.data.normal_(0, 0.2)
        cls.head = cls.model.mtp_module.heads[0]
        cls.norm = cls.model.model.norm
        rows, hidden = 9, cls.model.config.decoder.hidden_size
        cls.embeds = torch.randn(1, rows, hidden)
        cls.hidden = torch.randn(1, rows, hidden)
        cls.positions = torch.arange(rows)[None]

    def test_step_two_mask_sees_settled_rows_to_the_anchor_and_its_own_row(self) -> None:
        mask = chain_mask(4, 2)
        # query row 2: anchor is row 1, so step-1 rows 0 and 1, then its own step-2 row 2
        self.assertEqual(mask[2].tolist(), [True, True, False, False, False, False, True, False])

    def test_first_step_equals_the_head_run_causally(self) -> None:
        with torch.no_grad():
            ours, _, _ = head_step(self.head, self.embeds, self.hidden, self.positions, [], self.norm)
            reference, _ = self.head(self.embeds, self.hidden, self.positions, self.norm, None)
        torch.testing.assert_close(ours, reference, atol=1e-5, rtol=1e-5)

    def test_third_step_equals_drafting_with_a_cache(self) -> None:
        anchor = 4
        with torch.no_grad():
            g1, kv1, _ = head_step(self.head, self.embeds, self.hidden, self.positions, [], self.norm)
            shifted = torch.cat([g1[:, :1], g1[:, :-1]], 1)
            g2, kv2, _ = head_step(self.head, self.embeds, shifted, self.positions, [kv1], self.norm)
            shifted = torch.cat([g2[:, :1], g2[:, :-1]], 1)
            g3, _, _ = head_step(self.head, self.embeds, shifted, self.positions, [kv1, kv2], self.norm)
            # the drafter: settled rows 0..anchor, then one draft row at a time fed its own output
            settled, past = self.head(self.embeds[:, :anchor + 1], self.hidden[:, :anchor + 1],
                                      self.positions[:, :anchor + 1], self.norm, None)
            previous = settled[:, -1:]
            for row in (anchor + 1, anchor + 2):
                previous, new = self.head(self.embeds[:, row:row + 1], previous, self.positions[:, row:row + 1],
                                          self.norm, past)
                past = (torch.cat([past[0], new[0]], 1), torch.cat([past[1], new[1]], 1))
        torch.testing.assert_close(g3[:, anchor + 2], previous[:, 0], atol=1e-5, rtol=1e-5)
        torch.testing.assert_close(g2[:, anchor + 1], self._second(anchor), atol=1e-5, rtol=1e-5)

    def _second(self, anchor: int) -> torch.Tensor:
        with torch.no_grad():
            settled, past = self.head(self.embeds[:, :anchor + 1], self.hidden[:, :anchor + 1],
                                      self.positions[:, :anchor + 1], self.norm, None)
            out, _ = self.head(self.embeds[:, anchor + 1:anchor + 2], settled[:, -1:],
                               self.positions[:, anchor + 1:anchor + 2], self.norm, past)
        return out[:, 0]


class ReadingTest(unittest.TestCase):
    """Guided attention for the head, on a real synthetic page and its own tokens."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tokenizer = load_tokenizer(NANO_PACKAGE / "tokenizer.json")
        cls.prompt = nano_prompt(cls.tokenizer)
        cls.page = make_page("heldout", 3)
        cls.output = encode(cls.tokenizer, cls.page.markdown) + [1]

    def test_each_row_targets_where_the_token_it_drafts_is_drawn(self) -> None:
        rows = len(self.prompt.ids) + len(self.output) - 2
        mask = reading_targets(self.tokenizer, self.prompt, [self.page], [self.output], rows)
        letter, x, y = next(glyph for glyph in self.page.glyphs if glyph[0].isascii() and glyph[0].isalpha())
        pieces = {index: piece for piece, index in self.tokenizer["model"]["vocab"].items()}
        # row p drafts token p+2: the row drafting the token that spells the page's first letter
        row = len(self.prompt.ids) + next(g for g, t in enumerate(self.output) if letter in pieces[t]) - 2
        self.assertEqual(mask[0, row].nonzero().flatten().tolist(),
                         [cell_key(self.prompt, grid_cell(x, y, GRID_SIDE, PAGE_PX))])
        image = range(self.prompt.image_start, self.prompt.image_start + self.prompt.image_run)
        self.assertTrue(all(k in image for k in mask[0].nonzero()[:, 1].tolist()))
        # spaces and markup draw nothing: their rows have no target
        self.assertLess(int(mask[0].any(-1).sum()), len(self.output) - 5)

    def test_guided_loss_teaches_the_guided_head_where_to_look(self) -> None:
        torch.manual_seed(0)
        model = DeepseekOCRForCausalLM(nano_config(len(self.tokenizer["model"]["vocab"])))
        length = len(self.prompt.ids) + len(self.output)
        rows = length - 2
        hidden = model.config.decoder.hidden_size
        batch = DistilBatch(torch.randn(1, rows, hidden), torch.randn(1, rows, hidden),
                            torch.randint(3, 100, (1, rows)), len(self.prompt.ids),
                            reading_targets(self.tokenizer, self.prompt, [self.page], [self.output], rows))
        plain, _, unguided = mtp_loss(model, batch)
        guided, _, reading = mtp_loss(model, batch, guide_weight=2.0)
        self.assertEqual(unguided, 0.0)
        self.assertGreater(reading, 0.0)
        torch.testing.assert_close(guided, plain + 2.0 * reading)
        # what guidance adds reaches the guided head's queries
        (guided - plain).backward()
        q = model.mtp_module.heads[0].mtp_block.self_attn.q_proj.weight.grad
        head_dim = model.config.decoder.hidden_size // model.config.decoder.num_attention_heads
        self.assertGreater(float(q[:head_dim].abs().sum()), 0.0)

if __name__ == "__main__":
    unittest.main()
