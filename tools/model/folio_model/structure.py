"""The tensor names and shapes a config calls for, read off the reference model built without
allocating its weights (its layers made on PyTorch's `meta` device), so a 3.3B checkpoint is checked
against its config in a fraction of a second and a few MB."""
from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from typing import Iterator

from torch import nn

from .config import ModelConfig
from .model import DeepseekOCRForCausalLM

# the layer types the reference builds its weights with
_LAYERS = ("Linear", "Conv2d", "Embedding", "LayerNorm")
# buffers the reference derives; a checkpoint may or may not carry them
OPTIONAL = frozenset({"model.vision_model.embeddings.position_ids"})


@dataclass(frozen=True)
class TensorNames:
    required: frozenset[str]
    optional: frozenset[str]
    shapes: dict[str, tuple[int, ...]]


@contextlib.contextmanager
def _weights_on_meta() -> Iterator[None]:
    originals = {name: getattr(nn, name) for name in _LAYERS}
    try:
        for name, layer in originals.items():
            setattr(nn, name, functools.partial(layer, device="meta"))
        yield
    finally:
        for name, layer in originals.items():
            setattr(nn, name, layer)


def expected_tensor_names(cfg: ModelConfig) -> TensorNames:
    with _weights_on_meta():
        model = DeepseekOCRForCausalLM(cfg)
    shapes = {name: tuple(p.shape) for name, p in model.named_parameters()}
    shapes.update({name: tuple(b.shape) for name, b in model.named_buffers() if name in OPTIONAL})
    return TensorNames(frozenset(shapes) - OPTIONAL, OPTIONAL, shapes)
