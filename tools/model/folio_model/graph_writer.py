"""Builds one ONNX graph node by node with `onnx.helper`, writing each weight into the graph's
external data file (`<graph>.onnx.data`) the moment it is added, so no graph ever holds its weights
in memory: the protobuf keeps only names, shapes and offsets."""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
CONTRIB_DOMAIN = "com.microsoft"
# ONNX Runtime maps external weights straight from the file when they sit on page boundaries
ALIGNMENT = 4096
# weights below this are kept inside the protobuf
INLINE_BYTES = 1024

ELEMENT_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
                 np.dtype(np.int64): TensorProto.INT64, np.dtype(np.uint8): TensorProto.UINT8,
                 np.dtype(np.int32): TensorProto.INT32}
TYPE_NAMES = {TensorProto.FLOAT: "float32", TensorProto.FLOAT16: "float16", TensorProto.INT64: "int64"}


class ExternalData:
    """An external data file written tensor by tensor, each on a page boundary. With `dedupe`, a
    tensor already written under the same name with the same bytes is pointed to, not written
    again: the vision graphs of several view sizes share one file this way."""

    def __init__(self, path: Path, dedupe: bool = False) -> None:
        self.file = path.name
        self.path = path
        self._out = open(self.path, "wb")
        self.offset = 0
        self._written: dict[tuple[str, bytes], tuple[int, int]] | None = {} if dedupe else None

    @classmethod
    def beside(cls, graph_path: Path) -> "ExternalData":
        return cls(graph_path.with_name(graph_path.name + ".data"))

    def begin(self) -> int:
        pad = -self.offset % ALIGNMENT
        self._out.write(b"\0" * pad)
        self.offset += pad
        return self.offset

    def write(self, array: np.ndarray) -> None:
        self._out.write(np.ascontiguousarray(array).tobytes())
        self.offset += array.nbytes

    def tensor(self, name: str, dtype: np.dtype, shape: Sequence[int], start: int) -> TensorProto:
        """The initialiser for the bytes written since `start`."""
        return self._tensor_at(name, dtype, shape, start, self.offset - start)

    def _tensor_at(self, name: str, dtype: np.dtype, shape: Sequence[int], start: int, length: int) -> TensorProto:
        tensor = TensorProto(name=name, data_type=ELEMENT_TYPES[np.dtype(dtype)], dims=list(shape))
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (("location", self.file), ("offset", str(start)), ("length", str(length))):
            entry = tensor.external_data.add()
            entry.key, entry.value = key, value
        return tensor

    def add(self, name: str, array: np.ndarray) -> TensorProto:
        array = np.ascontiguousarray(array)
        key = None
        if self._written is not None:
            key = (name, hashlib.sha256(array.data).digest())
            if key in self._written:
                start, length = self._written[key]
                return self._tensor_at(name, array.dtype, array.shape, start, length)
        start = self.begin()
        self.write(array)
        if key is not None and self._written is not None:
            self._written[key] = (start, array.nbytes)
        return self.tensor(name, array.dtype, array.shape, start)

    def add_stream(self, name: str, parts: Sequence[Callable[[], np.ndarray]]) -> TensorProto:
        """One tensor stacked from equal parts made one at a time (a layer's experts):
        [len(parts), *part.shape], with only one part in memory. With `dedupe`, bytes already
        written under the same name are taken back and the earlier copy pointed to: the digest is
        known only once every part was made, and keeping the parts until then would hold them all."""
        end = self.offset
        start, shape, dtype = self.begin(), None, None
        digest = hashlib.sha256() if self._written is not None else None
        for make in parts:
            part = np.ascontiguousarray(make())
            if shape is None:
                shape, dtype = part.shape, part.dtype
            elif part.shape != shape or part.dtype != dtype:
                raise ValueError(f"{name}: parts differ ({part.shape} {part.dtype} after {shape} {dtype})")
            if digest is not None:
                digest.update(part.data)
            self.write(part)
            del part
        assert shape is not None and dtype is not None
        dims = (len(parts), *shape)
        if digest is None or self._written is None:
            return self.tensor(name, dtype, dims, start)
        key = (name, digest.digest())
        if key in self._written:
            self._out.seek(end)
            self._out.truncate()
            self.offset = end
            earlier, length = self._written[key]
            return self._tensor_at(name, dtype, dims, earlier, length)
        self._written[key] = (start, self.offset - start)
        return self.tensor(name, dtype, dims, start)

    def close(self) -> None:
        """Closes the file, removing it when nothing was written."""
        self._out.close()
        if self.offset == 0:
            self.path.unlink()


class GraphWriter:
    """`data`: an external data file shared with other graphs, which its owner closes; by default
    the graph's own `<graph>.onnx.data`, closed by `finish`."""

    def __init__(self, path: Path, name: str, data: ExternalData | None = None) -> None:
        self.path = path
        self._owns_data = data is None
        self._data = ExternalData.beside(path) if data is None else data
        self._name = name
        self._nodes: list[onnx.NodeProto] = []
        self._initialisers: list[TensorProto] = []
        self._inputs: list[onnx.ValueInfoProto] = []
        self._outputs: list[onnx.ValueInfoProto] = []
        self._used: set[str] = set()

    def _unique(self, name: str) -> str:
        candidate, n = name, 1
        while candidate in self._used:
            n += 1
            candidate = f"{name}_{n}"
        self._used.add(candidate)
        return candidate

    def input(self, name: str, elem_type: int, shape: Sequence[int | str]) -> str:
        self._used.add(name)
        self._inputs.append(helper.make_tensor_value_info(name, elem_type, list(shape)))
        return name

    def output(self, value: str, name: str, elem_type: int, shape: Sequence[int | str]) -> None:
        """Declares `value` a graph output called `name` (through an Identity when they differ)."""
        if value != name:
            self._used.add(name)
            self._nodes.append(helper.make_node("Identity", [value], [name], name=f"{name}/identity"))
        self._outputs.append(helper.make_tensor_value_info(name, elem_type, list(shape)))

    def weight(self, name: str, array: np.ndarray) -> str:
        """A named initialiser; large ones go to the external data file now."""
        array = np.ascontiguousarray(array)
        name = self._unique(name)
        if array.nbytes < INLINE_BYTES:
            self._initialisers.append(numpy_helper.from_array(array, name))
        else:
            self._initialisers.append(self._data.add(name, array))
        return name

    def weight_stream(self, name: str, parts: Sequence[Callable[[], np.ndarray]]) -> str:
        """One external initialiser stacked from equal parts made one at a time (a layer's experts):
        [len(parts), *part.shape], with only one part in memory."""
        name = self._unique(name)
        self._initialisers.append(self._data.add_stream(name, parts))
        return name

    def const(self, name: str, values: np.ndarray | int | float | Sequence[int]) -> str:
        return self.weight(name, np.asarray(values))

    def op(self, op_type: str, inputs: Sequence[str], name: str, outputs: int = 1, domain: str = "",
           omit: Sequence[int] = (), **attributes: object) -> str | list[str]:
        """Appends a node; returns its output name (a list when `outputs` > 1, with "" for the
        optional outputs listed in `omit`). An empty input name is an omitted optional input."""
        node_name = self._unique(name)
        produced = [node_name if outputs == 1 else "" if i in omit else self._unique(f"{node_name}:{i}")
                    for i in range(outputs)]
        self._nodes.append(helper.make_node(op_type, list(inputs), produced, name=node_name, domain=domain,
                                            **attributes))
        return produced[0] if outputs == 1 else produced

    def node_count(self) -> int:
        return len(self._nodes)

    def contrib_ops(self) -> list[str]:
        """`com.microsoft.<Op>` for each contrib operator the graph uses: what a provider must have."""
        return sorted({f"{n.domain}.{n.op_type}" for n in self._nodes if n.domain == CONTRIB_DOMAIN})

    def finish(self) -> None:
        if self._owns_data:
            self._data.close()
        graph = helper.make_graph(self._nodes, self._name, self._inputs, self._outputs, self._initialisers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET),
                                                        helper.make_opsetid(CONTRIB_DOMAIN, 1)])
        model.producer_name = "folio tools/model"
        onnx.save(model, str(self.path))
        # no onnx.checker here: it rejects ONNX Runtime's own `SimplifiedLayerNormalization`, which
        # lives in the default domain; loading in ONNX Runtime (the tests) is the check that matters
