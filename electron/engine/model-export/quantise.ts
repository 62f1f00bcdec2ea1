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

/** The squared error of one block's values quantised with `scale`, summed in numpy's order. */
function blockError(values: Float32Array, squares: Float32Array, block: number, scale: number, top: number): number {
  if (block % 8 !== 0 || block > 128 || block < 8) {
    for (let i = 0; i < block; i++) {
      let q = Math.round(f32(values[i]! / scale));
      if (q - f32(values[i]! / scale) === 0.5 && q & 1) q -= 1;
      q = q > top ? top : q < -top - 1 ? -top - 1 : q;
      const error = f32(f32(q * scale) - values[i]!);
      squares[i] = f32(error * error);
    }
    return pairwiseSum(squares, 0, block);
  }
  // numpy's 8 accumulators, with the squares made as they are summed
  let r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;
  for (let i = 0; i < block; i += 8) {
    for (let j = 0; j < 8; j++) {
      const v = values[i + j]!;
      const x = f32(v / scale);
      let q = Math.round(x);
      if (q - x === 0.5 && q & 1) q -= 1;
      q = q > top ? top : q < -top - 1 ? -top - 1 : q;
      const error = f32(f32(q * scale) - v);
      const square = f32(error * error);
      if (i === 0) {
        if (j === 0) r0 = square; else if (j === 1) r1 = square; else if (j === 2) r2 = square; else if (j === 3) r3 = square;
        else if (j === 4) r4 = square; else if (j === 5) r5 = square; else if (j === 6) r6 = square; else r7 = square;
      } else if (j === 0) r0 = f32(r0 + square);
      else if (j === 1) r1 = f32(r1 + square);
      else if (j === 2) r2 = f32(r2 + square);
      else if (j === 3) r3 = f32(r3 + square);
      else if (j === 4) r4 = f32(r4 + square);
      else if (j === 5) r5 = f32(r5 + square);
      else if (j === 6) r6 = f32(r6 + square);
      else r7 = f32(r7 + square);
    }
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
  const values = new Float32Array(block);
  const squares = new Float32Array(block);
  const fractions = SCALE_FRACTIONS;
  for (let row = 0; row < rows; row++) {
    for (let b = 0; b < blocks; b++) {
      const from = row * k + b * block;
      const count = Math.min(block, k - b * block);
      if (count < block) values.fill(0);
      values.set(weight.subarray(from, from + count));
      let largest: number;
      if (signedScales) {
        // the largest-magnitude value becomes -8 (-128), and with a fraction below 1 clips to it, so
        // it stays the block's largest after dequantising, as re-packing needs
        let peak = values[0]!;
        let peakSize = Math.abs(peak);
        for (let i = 1; i < block; i++) {
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
        for (let i = 0; i < block; i++) {
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
        const error = blockError(values, squares, block, scale, top);
        if (error < bestError) {
          best = scale;
          bestError = error;
        }
      }
      scales[row * blocks + b] = best;
      const out = (row * blocks + b) * bytesPerBlock;
      for (let i = 0; i < block; i++) {
        const x = f32(values[i]! / best);
        let q = Math.round(x);
        if (q - x === 0.5 && q & 1) q -= 1;
        q = (q > top ? top : q < -top - 1 ? -top - 1 : q) + zero;
        if (bits === 8) packed[out + i] = q;
        else if (i & 1) packed[out + (i >> 1)]! |= q << 4;
        else packed[out + (i >> 1)] = q;
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
