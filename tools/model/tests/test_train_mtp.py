"""The FastMTP training pass computes, for every row at once, what the runtime's drafter computes
one row at a time with the head's key/value cache."""
from __future__ import annotations

import sys
import unittest
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from folio_model.model import DeepseekOCRForCausalLM  # noqa: E402
from nano import nano_config  # noqa: E402
from train_mtp import chain_mask, head_step  # noqa: E402


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
            ours, _ = head_step(self.head, self.embeds, self.hidden, self.positions, [], self.norm)
            reference, _ = self.head(self.embeds, self.hidden, self.positions, self.norm, None)
        torch.testing.assert_close(ours, reference, atol=1e-5, rtol=1e-5)

    def test_third_step_equals_drafting_with_a_cache(self) -> None:
        anchor = 4
        with torch.no_grad():
            g1, kv1 = head_step(self.head, self.embeds, self.hidden, self.positions, [], self.norm)
            shifted = torch.cat([g1[:, :1], g1[:, :-1]], 1)
            g2, kv2 = head_step(self.head, self.embeds, shifted, self.positions, [kv1], self.norm)
            shifted = torch.cat([g2[:, :1], g2[:, :-1]], 1)
            g3, _ = head_step(self.head, self.embeds, shifted, self.positions, [kv1, kv2], self.norm)
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


if __name__ == "__main__":
    unittest.main()
