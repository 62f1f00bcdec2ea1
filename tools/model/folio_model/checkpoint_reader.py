"""A checkpoint's tensors read one at a time from their safetensors shards, so an export never holds
the whole model: each shard's header is parsed once and each tensor is read from disk when asked for
(bf16 and fp16 widened to fp32)."""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .safetensors_io import INDEX_FILE, SINGLE_FILE, SafetensorsError, bf16_to_fp32

_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "F64": np.float64,
           "I64": np.int64, "I32": np.int32, "U8": np.uint8}


@dataclass(frozen=True)
class _Entry:
    file: Path
    offset: int
    dtype: str
    shape: tuple[int, ...]


class CheckpointReader:
    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self._entries: dict[str, _Entry] = {}
        for file in self._shard_files():
            self._read_header(file)

    def _shard_files(self) -> list[Path]:
        index = self.directory / INDEX_FILE
        if index.exists():
            files = sorted(set(json.loads(index.read_text())["weight_map"].values()))
            return [self.directory / f for f in files]
        single = self.directory / SINGLE_FILE
        if single.exists():
            return [single]
        raise SafetensorsError(f"{self.directory}: neither {INDEX_FILE} nor {SINGLE_FILE} found; point --checkpoint "
                               "at the folder holding the model's safetensors files")

    def _read_header(self, file: Path) -> None:
        if not file.exists():
            raise SafetensorsError(f"{file}: listed in {INDEX_FILE} but missing; re-download the checkpoint")
        size = file.stat().st_size
        with open(file, "rb") as f:
            raw = f.read(8)
            if len(raw) < 8:
                raise SafetensorsError(f"{file}: too short to be a safetensors file; re-download it")
            (length,) = struct.unpack("<Q", raw)
            if 8 + length > size:
                raise SafetensorsError(f"{file}: header length {length} runs past the end of the file; "
                                       "the file is truncated, re-download it")
            header = json.loads(f.read(length))
        for name, info in header.items():
            if name == "__metadata__":
                continue
            if info["dtype"] not in _DTYPES:
                raise SafetensorsError(f"{file}: tensor {name} has dtype {info['dtype']}, which Folio cannot read")
            begin, end = info["data_offsets"]
            if 8 + length + end > size:
                raise SafetensorsError(f"{file}: tensor {name} runs past the end of the file; re-download it")
            self._entries[name] = _Entry(file, 8 + length + begin, info["dtype"], tuple(info["shape"]))

    def names(self) -> list[str]:
        return sorted(self._entries)

    def shape(self, name: str) -> tuple[int, ...]:
        return self._entry(name).shape

    def _entry(self, name: str) -> _Entry:
        entry = self._entries.get(name)
        if entry is None:
            raise KeyError(f"{self.directory}: the checkpoint has no tensor {name}")
        return entry

    def read(self, name: str) -> np.ndarray:
        """The tensor as float32 (integers as they are), read from disk now."""
        entry = self._entry(name)
        dtype = np.dtype(_DTYPES[entry.dtype]).newbyteorder("<")
        count = int(np.prod(entry.shape, dtype=np.int64))
        with open(entry.file, "rb") as f:
            f.seek(entry.offset)
            array = np.fromfile(f, dtype=dtype, count=count)
        if entry.dtype == "BF16":
            array = bf16_to_fp32(array)
        elif entry.dtype in ("F16", "F64"):
            array = array.astype(np.float32)
        return array.reshape(entry.shape)
