/**
 * The DeepEncoder's position tables resized to a view size at export time, as the reference does at
 * run time (tools/model/folio_model/sam.py, clip.py), with PyTorch's own arithmetic in float32:
 * SAM's absolute table and CLIP's grid bicubic with antialias (`F.interpolate(..., mode="bicubic",
 * antialias=True)`: Keys' kernel with a = -0.5, widened by the scale when shrinking, width first,
 * then height), SAM's relative tables linearly (`mode="linear"`, align_corners false).
 */

const f = Math.fround;

function cubicFilter(x: number): number {
  const a = -0.5;
  x = Math.abs(x);
  if (x < 1) return f(f(f(f((a + 2) * x) - (a + 3)) * x) * x + 1);
  if (x < 2) return f(f(f(f(f(a * x) - 5 * a) * x) + 8 * a) * x - 4 * a);
  return 0;
}

interface Taps {
  start: number;
  weights: Float32Array;
}

/** For each output index, the input taps and their weights (PyTorch's `_compute_indices_min_size_weights_aa`). */
function antialiasTaps(inputSize: number, outputSize: number): Taps[] {
  const scale = f(inputSize / outputSize);
  const support = scale >= 1 ? f(2 * scale) : 2;
  const invScale = scale >= 1 ? f(1 / scale) : 1;
  return Array.from({ length: outputSize }, (_, i) => {
    const center = f(scale * f(i + 0.5));
    const start = Math.max(Math.trunc(f(f(center - support) + 0.5)), 0);
    const size = Math.min(Math.trunc(f(f(center + support) + 0.5)), inputSize) - start;
    const weights = new Float32Array(size);
    let total = 0;
    for (let j = 0; j < size; j++) {
      weights[j] = cubicFilter(f(f(f(j + start) - center) + 0.5) * invScale);
      total = f(total + weights[j]!);
    }
    if (total !== 0) for (let j = 0; j < size; j++) weights[j] = f(weights[j]! / total);
    return { start, weights };
  });
}

/**
 * `[rows, cols, channels]` (channels last) resized to `[outRows, outCols, channels]`, bicubic with
 * antialias, width first as PyTorch does.
 */
export function resizeBicubicAntialias(values: Float32Array, rows: number, cols: number, channels: number, outRows: number, outCols: number): Float32Array {
  const across = antialiasTaps(cols, outCols);
  const wide = new Float32Array(rows * outCols * channels);
  for (let r = 0; r < rows; r++) {
    for (let o = 0; o < outCols; o++) {
      const { start, weights } = across[o]!;
      for (let c = 0; c < channels; c++) {
        let sum = f(values[(r * cols + start) * channels + c]! * weights[0]!);
        for (let j = 1; j < weights.length; j++) sum = f(sum + f(values[(r * cols + start + j) * channels + c]! * weights[j]!));
        wide[(r * outCols + o) * channels + c] = sum;
      }
    }
  }
  const down = antialiasTaps(rows, outRows);
  const out = new Float32Array(outRows * outCols * channels);
  for (let o = 0; o < outRows; o++) {
    const { start, weights } = down[o]!;
    for (let col = 0; col < outCols; col++) {
      for (let c = 0; c < channels; c++) {
        let sum = f(wide[(start * outCols + col) * channels + c]! * weights[0]!);
        for (let j = 1; j < weights.length; j++) sum = f(sum + f(wide[((start + j) * outCols + col) * channels + c]! * weights[j]!));
        out[(o * outCols + col) * channels + c] = sum;
      }
    }
  }
  return out;
}

/** `[length, channels]` resized along its first axis to `outLength`, linearly (align_corners false). */
export function resizeLinear(values: Float32Array, length: number, channels: number, outLength: number): Float32Array {
  if (length === outLength) return values;
  const scale = f(length / outLength);
  const out = new Float32Array(outLength * channels);
  for (let o = 0; o < outLength; o++) {
    // the source index stays unrounded until its fraction is taken (measured against PyTorch 1.13's weights)
    const source = Math.max(scale * (o + 0.5) - 0.5, 0);
    const i0 = Math.min(Math.floor(source), length - 1);
    const i1 = i0 + (i0 < length - 1 ? 1 : 0);
    const lambda1 = f(Math.min(Math.max(source - i0, 0), 1));
    const lambda0 = f(1 - lambda1);
    for (let c = 0; c < channels; c++) out[o * channels + c] = f(f(lambda0 * values[i0 * channels + c]!) + f(lambda1 * values[i1 * channels + c]!));
  }
  return out;
}

/**
 * SAM's decomposed relative positions on one axis for a `side`-long axis, as a MatMul operand:
 * `[side (query), channels, side (key)]`, entry `[q, c, k]` = the table's row `q - k + side - 1`, the
 * table first resized to `2 * side - 1` rows.
 */
export function relativeTable(table: Float32Array, length: number, channels: number, side: number): Float32Array {
  const resized = resizeLinear(table, length, channels, 2 * side - 1);
  const out = new Float32Array(side * channels * side);
  for (let q = 0; q < side; q++) {
    for (let k = 0; k < side; k++) {
      const row = q - k + side - 1;
      for (let c = 0; c < channels; c++) out[(q * channels + c) * side + k] = resized[row * channels + c]!;
    }
  }
  return out;
}
