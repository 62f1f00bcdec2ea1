"""Which BLAS PyTorch multiplies with. Debian's python3-torch links the reference BLAS (netlib's
libblas.so.3) unless OpenBLAS is installed: 0.36 GFLOP/s against about 16 with OpenBLAS on two
cores, which turns a real-size export from minutes into hours."""
from __future__ import annotations

import re
from pathlib import Path

import torch


def loaded_blas() -> str | None:
    """The path of the BLAS library this process multiplies with, if one is mapped: an optimised one
    (OpenBLAS, MKL, BLIS) when present, else the reference `libblas`."""
    torch.ones(2, 2) @ torch.ones(2, 2)  # make sure the library is loaded
    maps = Path("/proc/self/maps")
    if not maps.exists():
        return None
    paths = {str(Path(line.split()[-1]).resolve()) for line in maps.read_text().splitlines() if "/" in line}
    blas = sorted(p for p in paths if re.search(r"blas|mkl|blis", Path(p).name))
    optimised = [p for p in blas if re.search(r"openblas|mkl|blis", p)]
    return (optimised or blas or [None])[0]


def blas_warning() -> str | None:
    library = loaded_blas()
    if library is not None and not re.search(r"openblas|mkl|blis", library):
        return (f"PyTorch is using the reference BLAS ({library}), about 45x slower than OpenBLAS; "
                "install Debian's libopenblas0-pthread (apt-get install libopenblas0-pthread)")
    return None
