"""torch module -> one ONNX file (opset 17; plain ops unless the module emits a contrib op) with exactly the declared input/output names,
optionally with fp16 weights and fp16 graph I/O around an fp32 computation. This traced path writes the test
models' packages (fixtures/tiny*, fixtures/nano); real checkpoints are exported by Folio itself (`folio
export-model`, electron/engine/model-export/)."""
from __future__ import annotations

import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
CONTRIB_DOMAIN = "com.microsoft"


@dataclass(frozen=True)
class TensorSpec:
    name: str
    dtype: str  # "float32" | "float16" | "int64"
    shape: tuple[int | str, ...]  # strings are dynamic axes

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "dtype": self.dtype, "shape": list(self.shape)}


def _dynamic_axes(specs: Sequence[TensorSpec]) -> dict[str, dict[int, str]]:
    return {s.name: {i: d for i, d in enumerate(s.shape) if isinstance(d, str)} for s in specs}


def _name_outputs(model: onnx.ModelProto, names: Sequence[str]) -> None:
    """torch drops the requested name when an output is a folded constant; restore it with Identity."""
    for output, wanted in zip(model.graph.output, names):
        if output.name != wanted:
            model.graph.node.append(helper.make_node("Identity", [output.name], [wanted]))
            output.name = wanted


FP16_MAX = 65504.0


def half_weights(name: str, weights: np.ndarray) -> np.ndarray:
    """`weights` as fp16. bf16 checkpoints reach 3.4e38 where fp16 stops at 65504, and an overflow would
    silently become inf and NaN every logit, so it is refused with the tensor's name."""
    finite = weights[np.isfinite(weights)]
    largest = float(np.abs(finite).max()) if finite.size else 0.0
    if largest > FP16_MAX:
        raise ValueError(f"weight {name}: |value| {largest:.4g} exceeds fp16's largest, {FP16_MAX:g}; "
                         "export this checkpoint with --precision fp32")
    return weights.astype(np.float16)


def _cast_weights_up(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    """Store inline float weights as fp16; returns the casts that widen them where used."""
    casts = []
    for init in model.graph.initializer:
        if init.data_type == TensorProto.FLOAT:
            half = numpy_helper.from_array(half_weights(init.name, numpy_helper.to_array(init)), init.name + ".fp16")
            casts.append(helper.make_node("Cast", [half.name], [init.name], to=TensorProto.FLOAT))
            init.CopyFrom(half)
    return casts


def _half_io(model: onnx.ModelProto, keep_fp32: set[str], casts: list[onnx.NodeProto]) -> None:
    """Float graph inputs/outputs become fp16 (except `keep_fp32`), cast at the boundary; `casts`
    (the weights' widening casts) go first. Arithmetic stays fp32, so norms and softmax keep their range."""
    graph = model.graph
    casts = list(casts)
    for value in graph.input:
        if value.type.tensor_type.elem_type == TensorProto.FLOAT and value.name not in keep_fp32:
            inner = value.name + ".fp32"
            for node in graph.node:
                node.input[:] = [inner if n == value.name else n for n in node.input]
            casts.append(helper.make_node("Cast", [value.name], [inner], to=TensorProto.FLOAT))
            value.type.tensor_type.elem_type = TensorProto.FLOAT16
    for value in graph.output:
        if value.type.tensor_type.elem_type == TensorProto.FLOAT and value.name not in keep_fp32:
            inner = value.name + ".fp32"
            for node in graph.node:
                node.output[:] = [inner if n == value.name else n for n in node.output]
                node.input[:] = [inner if n == value.name else n for n in node.input]
            graph.node.append(helper.make_node("Cast", [inner], [value.name], to=TensorProto.FLOAT16))
            value.type.tensor_type.elem_type = TensorProto.FLOAT16
    nodes = casts + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)


def _trace(module: torch.nn.Module, example: tuple[torch.Tensor, ...], inputs: Sequence[TensorSpec],
           outputs: Sequence[TensorSpec]) -> onnx.ModelProto:
    with tempfile.TemporaryDirectory() as scratch, torch.no_grad(), warnings.catch_warnings():
        # the tracer warns of every shape it records as a constant: each graph is traced for its one
        # view size on purpose
        warnings.simplefilter("ignore", torch.jit.TracerWarning)
        # a file, not a buffer: torch writes weights beside graphs over 2 GB, and onnx.load reads them back
        traced = Path(scratch) / "graph.onnx"
        torch.onnx.export(module, example, str(traced), opset_version=OPSET, do_constant_folding=True,
                          input_names=[s.name for s in inputs], output_names=[s.name for s in outputs],
                          dynamic_axes=_dynamic_axes([*inputs, *outputs]), custom_opsets={CONTRIB_DOMAIN: 1})
        model = onnx.load(str(traced))
    _name_outputs(model, [s.name for s in outputs])
    model.producer_name = "folio tools/model"
    model.producer_version = ""
    return model


def _fp32_names(inputs: Sequence[TensorSpec], outputs: Sequence[TensorSpec]) -> set[str]:
    return {s.name for s in [*inputs, *outputs] if s.dtype == "float32"}


def export_graph(module: torch.nn.Module, example: tuple[torch.Tensor, ...], path: Path,
                 inputs: Sequence[TensorSpec], outputs: Sequence[TensorSpec], half: bool = False) -> None:
    model = _trace(module, example, inputs, outputs)
    if half:
        _half_io(model, _fp32_names(inputs, outputs), _cast_weights_up(model))
    if model.ByteSize() < 2**31 - 2**20:
        onnx.checker.check_model(model)
        onnx.save(model, str(path))
    else:
        # protobuf caps one message at 2 GB: real-size graphs keep their weights beside them
        onnx.save(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                  location=path.name + ".data")
        onnx.checker.check_model(str(path))
