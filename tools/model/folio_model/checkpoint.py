"""A Hugging Face checkpoint folder -> the reference model with every tensor loaded strictly."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from torch.overrides import TorchFunctionMode

from .config import ConfigError, ModelConfig
from .model import DeepseekOCRForCausalLM
from .safetensors_io import read_checkpoint

# Derived, not learned: the reference registers it as a buffer, and exports may or may not save it.
DERIVED_KEYS = ("model.vision_model.embeddings.position_ids",)


class _OnMeta(TorchFunctionMode):
    """Tensor factories make shape-only `meta` tensors (torch 1.13 has no `with torch.device('meta')`)."""
    FACTORIES = {torch.empty, torch.zeros, torch.ones, torch.full, torch.arange, torch.tensor}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in self.FACTORIES:
            kwargs["device"] = "meta"
        return func(*args, **kwargs)


def meta_model(cfg: ModelConfig) -> DeepseekOCRForCausalLM:
    """The reference model with shapes and no storage: the 3.3B model costs no memory."""
    with _OnMeta():
        return DeepseekOCRForCausalLM(cfg)


def expected_tensors(cfg: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Name -> shape of every tensor a checkpoint for `cfg` stores, in the module tree's order."""
    return {name: tuple(tensor.shape) for name, tensor in meta_model(cfg).state_dict().items()
            if name not in DERIVED_KEYS}


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
