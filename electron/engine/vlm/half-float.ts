/**
 * IEEE half floats as `Uint16Array` (how onnxruntime-node carries fp16 tensors) to and from float32,
 * for fp16 packages: embeddings, hidden states and pixels cross the graph boundary in fp16, while
 * Folio's host arithmetic stays in float32.
 */

const scratch = new DataView(new ArrayBuffer(4));

/** Rounds to the nearest half, ties to even; overflow becomes infinity, NaN stays NaN. */
export function toHalf(value: number): number {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    // subnormal: shift the mantissa with its implicit bit into place, rounding half to even
    const full = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    const rounded = full >>> shift;
    const rest = full & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    return sign | (rest > half || (rest === half && rounded & 1) ? rounded + 1 : rounded);
  }
  const rounded = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // a carry out of the mantissa correctly bumps the exponent (up to infinity)
  return sign | (rest > 0x1000 || (rest === 0x1000 && rounded & 1) ? rounded + 1 : rounded);
}

export function fromHalf(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >>> 10) & 0x1f;
  const mantissa = half & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

export function halvesFrom(values: Float32Array): Uint16Array {
  return Uint16Array.from(values, toHalf);
}

let halfValues: Float32Array | null = null;

/** Widens fp16 graph outputs; a table of all 65,536 halves makes a 129,280-entry logits row one lookup per entry. */
export function floatsFrom(halves: Uint16Array): Float32Array {
  const table = (halfValues ??= Float32Array.from({ length: 0x10000 }, (_, half) => fromHalf(half)));
  const out = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i++) out[i] = table[halves[i] as number] as number;
  return out;
}
