"""Safetensors files with numpy only: read (bf16 widened to fp32), write, and sharded checkpoints
through `model.safetensors.index.json`.

Layout: little-endian u64 header length, a JSON header mapping each name to dtype, shape and
[begin, end) byte offsets into the data that follows, then the data.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Mapping

import numpy as np

INDEX_FILE = "model.safetensors.index.json"
SINGLE_FILE = "model.safetensors"

_NUMPY_DTYPES = {
    "F64": np.float64, "F32": np.float32, "F16": np.float16,
    "I64": np.int64, "I32": np.int32, "I16": np.int16, "I8": np.int8, "U8": np.uint8, "BOOL": np.bool_,
}
_SAFETENSORS_DTYPES = {np.dtype(v): k for k, v in _NUMPY_DTYPES.items()}


class SafetensorsError(ValueError):
    pass


def bf16_to_fp32(raw: np.ndarray) -> np.ndarray:
    """uint16 bf16 bit patterns -> float32 (exact: bf16 is fp32's top half)."""
    return (raw.astype(np.uint32) << 16).view(np.float32)


def fp32_to_bf16(values: np.ndarray) -> np.ndarray:
    """float32 -> uint16 bf16 bit patterns, rounding to nearest even."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounding = ((bits >> 16) & 1) + 0x7FFF
    return ((bits + rounding) >> 16).astype(np.uint16)


def read_safetensors(path: str | Path) -> dict[str, np.ndarray]:
    path = Path(path)
    data = path.read_bytes()
    if len(data) < 8:
        raise SafetensorsError(f"{path}: too short to be a safetensors file; re-download it")
    (header_len,) = struct.unpack("<Q", data[:8])
    if 8 + header_len > len(data):
        raise SafetensorsError(f"{path}: header length {header_len} runs past the end of the file; "
                               "the file is truncated, re-download it")
    header = json.loads(data[8:8 + header_len])
    body = memoryview(data)[8 + header_len:]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        dtype = info["dtype"]
        chunk = body[begin:end]
        if dtype == "BF16":
            array = bf16_to_fp32(np.frombuffer(chunk, dtype="<u2"))
        elif dtype in _NUMPY_DTYPES:
            array = np.frombuffer(chunk, dtype=np.dtype(_NUMPY_DTYPES[dtype]).newbyteorder("<")).copy()
        else:
            raise SafetensorsError(f"{path}: tensor {name} has dtype {dtype}, which Folio cannot read")
        tensors[name] = array.reshape(info["shape"])
    return tensors


def write_safetensors(path: str | Path, tensors: Mapping[str, np.ndarray], bf16: bool = False,
                      metadata: Mapping[str, str] | None = None) -> None:
    """Deterministic bytes: names sorted, header padded with spaces to 8-byte alignment.
    With `bf16`, float32 tensors are stored as BF16 (how the published checkpoints are stored)."""
    header: dict[str, object] = {}
    if metadata:
        header["__metadata__"] = dict(metadata)
    blobs, offset = [], 0
    for name in sorted(tensors):
        array = np.ascontiguousarray(tensors[name])
        if bf16 and array.dtype == np.float32:
            dtype, blob = "BF16", fp32_to_bf16(array).astype("<u2").tobytes()
        else:
            dtype, blob = _SAFETENSORS_DTYPES[array.dtype], array.astype(array.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dtype, "shape": list(array.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(encoded)))
        out.write(encoded)
        for blob in blobs:
            out.write(blob)


def write_sharded(directory: str | Path, tensors: Mapping[str, np.ndarray], shards: int, bf16: bool = False) -> None:
    """`model-0000i-of-0000n.safetensors` files plus the index that maps each name to its file."""
    directory = Path(directory)
    names = sorted(tensors)
    weight_map = {}
    for i in range(shards):
        file = f"model-{i + 1:05d}-of-{shards:05d}.safetensors"
        part = {name: tensors[name] for name in names[i::shards]}
        write_safetensors(directory / file, part, bf16=bf16)
        weight_map.update({name: file for name in part})
    index = {"metadata": {}, "weight_map": dict(sorted(weight_map.items()))}
    (directory / INDEX_FILE).write_text(json.dumps(index, indent=2) + "\n")


def read_checkpoint(directory: str | Path) -> dict[str, np.ndarray]:
    """Every tensor of a checkpoint directory: sharded via the index file, or one model.safetensors."""
    directory = Path(directory)
    index_path = directory / INDEX_FILE
    if index_path.exists():
        weight_map = json.loads(index_path.read_text())["weight_map"]
        tensors: dict[str, np.ndarray] = {}
        for file in sorted(set(weight_map.values())):
            shard = read_safetensors(directory / file)
            tensors.update({k: v for k, v in shard.items() if weight_map.get(k) == file})
        missing = sorted(set(weight_map) - set(tensors))
        if missing:
            raise SafetensorsError(f"{index_path}: {len(missing)} tensors listed in the index are not in "
                                   f"their shard (first: {missing[0]}); re-download the checkpoint")
        return tensors
    single = directory / SINGLE_FILE
    if single.exists():
        return read_safetensors(single)
    raise SafetensorsError(f"{directory}: neither {INDEX_FILE} nor {SINGLE_FILE} found; point --checkpoint at "
                           "the folder holding the model's safetensors files")


_ITEM_SIZES = {"BF16": 2, **{name: np.dtype(dtype).itemsize for name, dtype in _NUMPY_DTYPES.items()}}


def read_header(path: str | Path) -> dict[str, dict]:
    """Name -> {dtype, shape, data_offsets} (and `__metadata__`), without reading any tensor data."""
    path = Path(path)
    with open(path, "rb") as f:
        raw = f.read(8)
        if len(raw) < 8:
            raise SafetensorsError(f"{path}: too short to be a safetensors file; re-download it")
        (header_len,) = struct.unpack("<Q", raw)
        header = f.read(header_len)
    if len(header) < header_len:
        raise SafetensorsError(f"{path}: header length {header_len} runs past the end of the file; "
                               "the file is truncated, re-download it")
    return json.loads(header)


class SafetensorsStream:
    """Writes one safetensors file tensor by tensor, in bounded memory: the header is computed from
    `entries` (name, safetensors dtype, shape) up front, then each tensor's data arrives in entry
    order, in as many `write` calls as the caller likes (BF16 data as uint16 bit patterns)."""

    def __init__(self, path: str | Path, entries: list[tuple[str, str, tuple[int, ...]]],
                 metadata: Mapping[str, str] | None = None) -> None:
        header: dict[str, object] = {"__metadata__": dict(metadata)} if metadata else {}
        self.sizes: list[tuple[str, int]] = []
        offset = 0
        for name, dtype, shape in entries:
            size = _ITEM_SIZES[dtype] * int(np.prod(shape, dtype=np.int64))
            header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
            self.sizes.append((name, size))
            offset += size
        encoded = json.dumps(header, separators=(",", ":")).encode()
        encoded += b" " * (-len(encoded) % 8)
        self.path = Path(path)
        self.file = open(self.path, "wb")
        self.file.write(struct.pack("<Q", len(encoded)))
        self.file.write(encoded)
        self.index, self.written = 0, 0

    def write(self, name: str, data: np.ndarray) -> None:
        if self.index >= len(self.sizes) or self.sizes[self.index][0] != name:
            expected = self.sizes[self.index][0] if self.index < len(self.sizes) else "nothing"
            raise SafetensorsError(f"{self.path}: got data for {name}, expected {expected}")
        blob = np.ascontiguousarray(data).astype(data.dtype.newbyteorder("<"), copy=False).tobytes()
        self.written += len(blob)
        size = self.sizes[self.index][1]
        if self.written > size:
            raise SafetensorsError(f"{self.path}: {name} got {self.written} bytes, its header says {size}")
        self.file.write(blob)
        if self.written == size:
            self.index, self.written = self.index + 1, 0

    def close(self) -> None:
        self.file.close()
        if self.index < len(self.sizes):
            raise SafetensorsError(f"{self.path}: closed before {self.sizes[self.index][0]} was complete")

    def __enter__(self) -> "SafetensorsStream":
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is None:
            self.close()
        else:
            self.file.close()
