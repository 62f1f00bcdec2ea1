"""Weight-only 4- or 8-bit quantisation in the layout ONNX Runtime's `MatMulNBits` and `QMoE` read:
symmetric blocks along the input dimension K, no zero points (the kernels then take 8 for 4 bits,
128 for 8), scales per block; 4-bit values two a byte with the first in the low nibble.

With `signed_scales`, each block's scale takes the sign of its largest-magnitude value, which is
stored as -8 (-128): the form MLAS's own 4-bit GEMM quantises to (scale = that value / -8). ONNX
Runtime's CPU `QMoE` re-packs 4-bit experts into that form for its fast kernel, after dequantising
them; from signed scales the re-packing gives back the same values, from positive ones it rounds a
second time (9% of the output's largest value on a real-width layer)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BITS = 4
# rows quantised at a time, so a 165M-parameter lm_head needs no full-size temporaries
_ROW_CHUNK = 4096


@dataclass(frozen=True)
class Quantised:
    packed: np.ndarray  # uint8 [N, K_padded / block, block * bits / 8]
    scales: np.ndarray  # float32 [N, K_padded / block]
    bits: int = BITS

    def dequantised(self, k: int) -> np.ndarray:
        """[N, k] float32: what the kernels multiply by (tests and error measurements)."""
        if self.bits == 8:
            q = self.packed.astype(np.float32)
        else:
            low, high = self.packed & 0x0F, self.packed >> 4
            q = np.stack([low, high], axis=-1).reshape(*self.packed.shape[:2], -1).astype(np.float32)
        q -= zero_point(self.bits)
        return (q * self.scales[..., None]).reshape(self.packed.shape[0], -1)[:, :k]


def zero_point(bits: int) -> int:
    return 1 << (bits - 1)


# Each block's scale is the one of these fractions of max|w|/7 (signed: of its largest value / -8)
# that gives it the least squared error: clipping the largest value a little buys finer steps for
# the rest. On Gaussian weights at the real width this cut the mean squared error by about a fifth
# against max|w|/7 alone; signed scales, which use all sixteen levels, cut it by a further tenth.
_SCALE_FRACTIONS = (1.0, 0.95, 0.9, 0.85, 0.8)


def _quantise_rows(rows: np.ndarray, block: int, bits: int, signed_scales: bool) -> tuple[np.ndarray, np.ndarray]:
    n, k = rows.shape
    top = zero_point(bits) - 1  # 7 or 127
    blocks = rows.reshape(n, k // block, block)
    if signed_scales:
        # the largest-magnitude value becomes -8 (-128), and with a fraction below 1 clips to it, so
        # it stays the block's largest after dequantising, as re-packing needs
        peak = np.take_along_axis(blocks, np.abs(blocks).argmax(axis=-1)[..., None], axis=-1)[..., 0]
        largest = peak / -(top + 1)
    else:
        # symmetric: -8 (-128) is never used but by clipping
        largest = np.abs(blocks).max(axis=-1) / top
    largest[largest == 0] = 1.0
    best_scales, best_error = largest, np.full(largest.shape, np.inf, dtype=np.float32)
    for fraction in _SCALE_FRACTIONS:
        scales = largest * fraction
        q = np.clip(np.rint(blocks / scales[..., None]), -top - 1, top)
        error = ((q * scales[..., None] - blocks) ** 2).sum(axis=-1)
        better = error < best_error
        best_scales = np.where(better, scales, best_scales)
        best_error = np.where(better, error, best_error)
    q = np.clip(np.rint(blocks / best_scales[..., None]), -top - 1, top).astype(np.int16) + zero_point(bits)
    packed = (q if bits == 8 else q[..., 0::2] | (q[..., 1::2] << 4)).astype(np.uint8)
    return packed, best_scales.astype(np.float32)


def quantise(weight: np.ndarray, block: int, bits: int = BITS, signed_scales: bool = False) -> Quantised:
    """`weight` [N, K] (one row per output, as checkpoints store linear layers) in blocks of `block`
    along K, `bits` (4 or 8) a value; K is padded with zeros to a whole number of blocks."""
    if bits not in (4, 8):
        raise ValueError(f"{bits}-bit quantisation is not supported; use 4 or 8")
    n, k = weight.shape
    padded = -k % block
    packed, scales = [], []
    for start in range(0, n, _ROW_CHUNK):
        rows = np.asarray(weight[start:start + _ROW_CHUNK], dtype=np.float32)
        if padded:
            rows = np.pad(rows, ((0, 0), (0, padded)))
        p, s = _quantise_rows(rows, block, bits, signed_scales)
        packed.append(p)
        scales.append(s)
    return Quantised(np.concatenate(packed), np.concatenate(scales), bits)
