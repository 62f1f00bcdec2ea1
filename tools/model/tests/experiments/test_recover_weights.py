"""recover_weights: the shipped nano package back to PyTorch checkpoints that load into the model
and hold the package's values (the script itself checks that exporting them again gives the
package bit for bit)."""
from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from experiments.nano import nano_config
from experiments.recover_weights import main
from folio_model.model import DeepseekOCRForCausalLM

NANO = Path(__file__).resolve().parents[2] / "fixtures" / "nano"


class RecoverWeightsTest(unittest.TestCase):
    def test_the_nano_package_comes_back_as_checkpoints_that_load_and_hold_its_weights(self) -> None:
        with tempfile.TemporaryDirectory() as scratch:
            run = Path(scratch) / "run"
            self.assertEqual(main(["--package", str(NANO), "--run", str(run)]), 0)
            state = torch.load(run / "checkpoint.pt")["model"]
            head = torch.load(run / "checkpoint_mtp.pt")["head"]
            self.assertTrue(head and all(name.startswith("mtp_module.") for name in head))
            model = DeepseekOCRForCausalLM(nano_config(state["model.embed_tokens.weight"].shape[0]))
            unread = {"model.vision_model.embeddings.patch_embedding.weight", "model.vision_model.embeddings.position_ids"}
            missing, unexpected = model.load_state_dict({**state, **head}, strict=False)
            self.assertEqual(set(missing), unread - set(state))
            self.assertEqual(unexpected, [])
            embedding = onnx.load(str(NANO / "embedding.onnx")).graph.initializer[0]
            self.assertTrue(np.array_equal(state["model.embed_tokens.weight"].numpy(), numpy_helper.to_array(embedding)))
            self.assertTrue((run / "tokenizer.json").exists())


if __name__ == "__main__":
    unittest.main()
