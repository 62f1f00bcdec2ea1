"""A Hugging Face checkpoint folder -> the reference model with every tensor loaded strictly."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from .config import ConfigError, ModelConfig
from .model import DeepseekOCRForCausalLM
from .safetensors_io import read_checkpoint

# Derived, not learned: the reference registers it as a buffer, and exports may or may not save it.
DERIVED_KEYS = ("model.vision_model.embeddings.position_ids",)


def read_config(directory: Path, allow_unknown: bool = False) -> ModelConfig:
    """Raises ConfigError naming config.json's path and each field it cannot honour."""
    path = directory / "config.json"
    if not path.exists():
        raise FileNotFoundError(f"{path}: missing; point --checkpoint at the folder with config.json")
    try:
        return ModelConfig.from_dict(json.loads(path.read_text()), allow_unknown=allow_unknown)
    except ConfigError as error:
        raise ConfigError(error.problems, source=str(path)) from None


def load_model(directory: str | Path, allow_unknown_config: bool = False) -> DeepseekOCRForCausalLM:
    directory = Path(directory)
    model = DeepseekOCRForCausalLM(read_config(directory, allow_unknown_config)).eval()
    tensors = read_checkpoint(directory)
    state = {name: torch.from_numpy(np.ascontiguousarray(array)) for name, array in tensors.items()}
    expected = model.state_dict()
    for key in DERIVED_KEYS:
        state.setdefault(key, expected[key])
    missing = sorted(set(expected) - set(state))
    unexpected = sorted(set(state) - set(expected))
    if missing or unexpected:
        raise ValueError(f"{directory}: checkpoint names differ from the reference model: "
                         f"{len(missing)} missing (first: {missing[:3]}), {len(unexpected)} unexpected "
                         f"(first: {unexpected[:3]}); is this a DeepSeek-OCR / jina-ocr-v1 checkpoint?")
    state = {k: v.to(expected[k].dtype) for k, v in state.items()}
    model.load_state_dict(state, strict=True)
    return model
