"""eval_cer's arithmetic: the runs it asks the CLI for, the error rate, and acceptance pooled over
pages whose drafting differed (as `auto`'s does)."""
from __future__ import annotations

import unittest

from experiments.eval_cer import character_error_rate, exported_markdown, pooled_acceptance, spec_ks


class EvalCerTest(unittest.TestCase):
    def test_greedy_runs_first_then_k_in_order_then_auto(self) -> None:
        self.assertEqual(spec_ks("auto,3,1"), ["0", "1", "3", "auto"])
        self.assertEqual(spec_ks("0"), ["0"])

    def test_error_rate_is_edits_over_the_truth_length(self) -> None:
        self.assertEqual(character_error_rate("kitten", "sitting"), 3 / 7)
        self.assertEqual(character_error_rate("same", "same"), 0.0)

    def test_truth_is_compared_as_the_cli_writes_display_formulas(self) -> None:
        truth = "Text $x^2$ here.\n\n$$6 = \\frac{a}{b}$$\n\nand $$y$$ inline"
        self.assertEqual(exported_markdown(truth), "Text $x^2$ here.\n\n$$\n6 = \\frac{a}{b}\n$$\n\nand $$y$$ inline")

    def test_acceptance_weighs_each_page_by_its_drafts_at_that_position(self) -> None:
        # page a: 10 steps at K=1 (all right); page b: 30 steps at K=3, first drafts right half the time
        a = {"acceptance": [1.0, 0.0, 0.0, 0.0], "stepsAtK": [0, 10, 0, 0, 0]}
        b = {"acceptance": [0.5, 0.8, 0.6, 0.0], "stepsAtK": [5, 0, 0, 30, 0]}
        pooled = pooled_acceptance([a, b])
        self.assertAlmostEqual(pooled[0], (10 * 1.0 + 30 * 0.5) / 40)
        self.assertAlmostEqual(pooled[1], 0.8)
        self.assertAlmostEqual(pooled[2], 0.6)
        self.assertEqual(pooled[3], 0.0)


if __name__ == "__main__":
    unittest.main()
