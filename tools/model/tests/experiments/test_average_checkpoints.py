"""average_checkpoints: the element-wise mean of float tensors, integers taken from the last, and a
refusal to mix checkpoints whose tensors differ."""
from __future__ import annotations

import unittest

import torch

from experiments.average_checkpoints import average_states


class AverageTest(unittest.TestCase):
    def test_float_tensors_are_averaged_and_the_rest_taken_from_the_last(self) -> None:
        a = {"w": torch.tensor([1.0, 2.0]), "steps": torch.tensor([3])}
        b = {"w": torch.tensor([3.0, 6.0]), "steps": torch.tensor([7])}
        mean = average_states([a, b])
        self.assertTrue(torch.equal(mean["w"], torch.tensor([2.0, 4.0])))
        self.assertEqual(mean["w"].dtype, torch.float32)
        self.assertTrue(torch.equal(mean["steps"], torch.tensor([7])))

    def test_refuses_checkpoints_with_different_tensors(self) -> None:
        with self.assertRaisesRegex(ValueError, "different tensors"):
            average_states([{"w": torch.zeros(1)}, {"v": torch.zeros(1)}])


if __name__ == "__main__":
    unittest.main()
