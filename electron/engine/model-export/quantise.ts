/**
 * Weight-only 4- or 8-bit quantisation in the layout ONNX Runtime's `MatMulNBits` and `QMoE` read:
 * symmetric blocks along the input dimension K, no zero points (the kernels then take 8 for 4 bits,
 * 128 for 8), scales per block; 4-bit values two a byte with the first in the low nibble.
 *
 * With `signedScales`, each block's scale takes the sign of its largest-magnitude value, which is
 * stored as -8 (-128): the form MLAS's own 4-bit GEMM quantises to (scale = that value / -8). ONNX
 * Runtime's CPU `QMoE` re-packs 4-bit experts into that form for its fast kernel, after dequantising
 * them; from signed scales the re-packing gives back the same values, from positive ones it rounds a
 * second time (9% of the output's largest value on a real-width layer).
 *
 * The arithmetic is float32 throughout, in numpy's order (its pairwise sums included), so these
 * bytes are the ones the Python exporter it replaced wrote.
 */

const f32 = Math.fround;

export interface Quantised {
  /** `[N, Kpadded / block, block * bits / 8]`. */
  packed: Uint8Array;
  /** `[N, Kpadded / block]`. */
  scales: Float32Array;
  rows: number;
  blocks: number;
  bits: 4 | 8;
}

/**
 * Each block's scale is the one of these fractions of max|w|/7 (signed: of its largest value / -8)
 * that gives it the least squared error: clipping the largest value a little buys finer steps for
 * the rest. On Gaussian weights at the real width this cut the mean squared error by about a fifth
 * against max|w|/7 alone; signed scales, which use all sixteen levels, cut it by a further tenth.
 */
const SCALE_FRACTIONS = [1.0, 0.95, 0.9, 0.85, 0.8].map(f32);

/** numpy's float32 pairwise sum of `values[start, start + n)` (8 accumulators up to 128, halves above). */
function pairwiseSum(values: Float32Array, start: number, n: number): number {
  if (n < 8) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum = f32(sum + values[start + i]!);
    return sum;
  }
  if (n <= 128) {
    let r0 = values[start]!, r1 = values[start + 1]!, r2 = values[start + 2]!, r3 = values[start + 3]!;
    let r4 = values[start + 4]!, r5 = values[start + 5]!, r6 = values[start + 6]!, r7 = values[start + 7]!;
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      const at = start + i;
      r0 = f32(r0 + values[at]!); r1 = f32(r1 + values[at + 1]!); r2 = f32(r2 + values[at + 2]!); r3 = f32(r3 + values[at + 3]!);
      r4 = f32(r4 + values[at + 4]!); r5 = f32(r5 + values[at + 5]!); r6 = f32(r6 + values[at + 6]!); r7 = f32(r7 + values[at + 7]!);
    }
    let sum = f32(f32(f32(r0 + r1) + f32(r2 + r3)) + f32(f32(r4 + r5) + f32(r6 + r7)));
    for (; i < n; i++) sum = f32(sum + values[start + i]!);
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return f32(pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half));
}

/** Adding and taking away 1.5 * 2^52 rounds a float64 below 2^51 to an integer, ties to even (numpy's rint). */
const ROUNDER = 6755399441055744;

/**
 * `x` (a value over its block's scale) as its level: rounded to even, clipped to [-top - 1, top]. It
 * clips first, which gives the same level (both bounds are integers) and keeps the rounding exact.
 */
function level(x: number, top: number): number {
  const clipped = x > top ? top : x < -top - 1 ? -top - 1 : x;
  return clipped + ROUNDER - ROUNDER;
}

/** One value's squared error at `scale`, in float32. */
function squaredError(v: number, scale: number, top: number): number {
  const error = f32(f32(level(f32(v / scale), top) * scale) - v);
  return f32(error * error);
}

/** The squared error of the block `values[at, at + block)` quantised with `scale`, summed in numpy's order. */
function blockError(values: Float32Array, at: number, squares: Float32Array, block: number, scale: number, top: number): number {
  if (block % 8 !== 0 || block > 128 || block < 8) {
    for (let i = 0; i < block; i++) squares[i] = squaredError(values[at + i]!, scale, top);
    return pairwiseSum(squares, 0, block);
  }
  // numpy's 8 accumulators, with the squares made as they are summed (0 + a square is that square)
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
  for (let i = at, end = at + block; i < end; i += 8) {
    r0 = f32(r0 + squaredError(values[i]!, scale, top));
    r1 = f32(r1 + squaredError(values[i + 1]!, scale, top));
    r2 = f32(r2 + squaredError(values[i + 2]!, scale, top));
    r3 = f32(r3 + squaredError(values[i + 3]!, scale, top));
    r4 = f32(r4 + squaredError(values[i + 4]!, scale, top));
    r5 = f32(r5 + squaredError(values[i + 5]!, scale, top));
    r6 = f32(r6 + squaredError(values[i + 6]!, scale, top));
    r7 = f32(r7 + squaredError(values[i + 7]!, scale, top));
  }
  return f32(f32(f32(r0 + r1) + f32(r2 + r3)) + f32(f32(r4 + r5) + f32(r6 + r7)));
}

/**
 * `weight` `[rows, k]` (one row per output, as checkpoints store linear layers) in blocks of `block`
 * along K, `bits` a value; K is padded with zeros to a whole number of blocks.
 */
export function quantise(weight: Float32Array, rows: number, k: number, block: number, bits: 4 | 8 = 4, signedScales = false): Quantised {
  const blocks = Math.ceil(k / block);
  const zero = 1 << (bits - 1);
  const top = zero - 1;
  const bytesPerBlock = (block * bits) / 8;
  const packed = new Uint8Array(rows * blocks * bytesPerBlock);
  const scales = new Float32Array(rows * blocks);
  // a row's last block when K is not a whole number of blocks; whole blocks are read where they lie
  const padded = new Float32Array(block);
  const squares = new Float32Array(block);
  const fractions = SCALE_FRACTIONS;
  for (let row = 0; row < rows; row++) {
    for (let b = 0; b < blocks; b++) {
      let values = weight;
      let at = row * k + b * block;
      const count = Math.min(block, k - b * block);
      if (count < block) {
        padded.fill(0);
        padded.set(weight.subarray(at, at + count));
        values = padded;
        at = 0;
      }
      let largest: number;
      if (signedScales) {
        // the largest-magnitude value becomes -8 (-128), and with a fraction below 1 clips to it, so
        // it stays the block's largest after dequantising, as re-packing needs
        let peak = values[at]!;
        let peakSize = Math.abs(peak);
        for (let i = at + 1; i < at + block; i++) {
          const size = Math.abs(values[i]!);
          if (size > peakSize) {
            peak = values[i]!;
            peakSize = size;
          }
        }
        largest = f32(peak / -(top + 1));
      } else {
        // symmetric: -8 (-128) is never used but by clipping
        let max = 0;
        for (let i = at; i < at + block; i++) {
          const size = Math.abs(values[i]!);
          if (size > max) max = size;
        }
        largest = f32(max / top);
      }
      if (largest === 0) largest = 1;
      let best = largest;
      let bestError = Number.POSITIVE_INFINITY;
      for (let t = 0; t < fractions.length; t++) {
        const scale = f32(largest * fractions[t]!);
        const error = blockError(values, at, squares, block, scale, top);
        if (error < bestError) {
          best = scale;
          bestError = error;
        }
      }
      scales[row * blocks + b] = best;
      const out = (row * blocks + b) * bytesPerBlock;
      if (bits === 8) {
        for (let i = 0; i < block; i++) packed[out + i] = level(f32(values[at + i]! / best), top) + zero;
      } else {
        // two a byte, the first in the low nibble
        for (let i = 0; i < block; i += 2) {
          const low = level(f32(values[at + i]! / best), top) + zero;
          const high = i + 1 < block ? level(f32(values[at + i + 1]! / best), top) + zero : 0;
          packed[out + (i >> 1)] = low | (high << 4);
        }
      }
    }
  }
  return { packed, scales, rows, blocks, bits };
}

/** `[rows, k]` float32: what the kernels multiply by (tests and error measurements). */
export function dequantised(q: Quantised, k: number): Float32Array {
  const out = new Float32Array(q.rows * k);
  const block = (q.packed.length / (q.rows * q.blocks) * 8) / q.bits;
  const zero = 1 << (q.bits - 1);
  for (let row = 0; row < q.rows; row++) {
    for (let i = 0; i < k; i++) {
      const b = Math.floor(i / block);
      const at = (row * q.blocks + b) * (block * q.bits) / 8;
      const within = i % block;
      const level = q.bits === 8 ? q.packed[at + within]! : (q.packed[at + (within >> 1)]! >> ((within & 1) * 4)) & 0x0f;
      out[row * k + i] = (level - zero) * q.scales[row * q.blocks + b]!;
    }
  }
  return out;
}
