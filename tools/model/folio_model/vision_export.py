"""The DeepEncoder (SAM, CLIP, projector and the two layout embeddings) alone, loaded from the
checkpoint tensor by tensor, for exporting the vision graphs without building the decoder."""
from __future__ import annotations

from pathlib import Path

import torch
from torch import nn

from .checkpoint_reader import CheckpointReader
from .config import ModelConfig
from .graph_writer import ExternalData
from .graphs import VisionGraph
from .model import add_deep_encoder
from .onnx_export import TensorSpec, export_graph_streamed

# what the reference registers as buffers rather than reads from the checkpoint
_DERIVED = ("vision_model.embeddings.position_ids",)


class _VisionParts(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        add_deep_encoder(self, cfg)


class VisionModel(nn.Module):
    """What `graphs.VisionGraph` reads of the full model: `config` and `model.<vision parts>`."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.config = cfg
        self.model = _VisionParts(cfg)


def load_vision(reader: CheckpointReader, cfg: ModelConfig) -> VisionModel:
    vision = VisionModel(cfg).eval()
    with torch.no_grad():
        for name, tensor in [*vision.model.named_parameters(), *vision.model.named_buffers()]:
            if name in _DERIVED and f"model.{name}" not in reader.names():
                continue
            tensor.copy_(torch.from_numpy(reader.read(f"model.{name}")).to(tensor.dtype))
    return vision


def export_vision(reader: CheckpointReader, cfg: ModelConfig, size: int, out: Path, half: bool,
                  shared: ExternalData, linear_bits: int | None = None) -> dict:
    """`vision_<size>.onnx`: pixel_values [n, 3, S, S] -> features [n, (S/64)^2, H] and the layout
    embeddings. Weights are loaded afresh for each size and resized in place; the weights every size
    shares are written once into `shared`. `linear_bits`: see `export_graph_streamed`."""
    float_name = "float16" if half else "float32"
    hidden = cfg.decoder.hidden_size
    side = size // cfg.sam.patch_size // 4
    inputs = [TensorSpec("pixel_values", float_name, ("views", 3, size, size))]
    outputs = [TensorSpec("features", float_name, ("views", side * side, hidden)),
               TensorSpec("image_newline", float_name, (hidden,)),
               TensorSpec("view_seperator", float_name, (hidden,))]
    file = f"vision_{size}.onnx"
    graph = VisionGraph(load_vision(reader, cfg), size, in_place=True)
    # one view traced: a batch of two would double SAM's [views, heads, 4096, 4096] global attention
    export_graph_streamed(graph, (torch.zeros(1, 3, size, size),), out / file, inputs, outputs, half, shared, linear_bits)
    return {"file": file, "view_size": size, "grid": side, "inputs": inputs, "outputs": outputs}
