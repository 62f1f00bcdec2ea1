// The exporter's weight quantisation and the routed experts' layout, on seeded Gaussian weights.
import { describe, expect, it } from 'vitest';
import { DECODER_DEFAULTS } from './checkpoint-config.js';
import { bannedTokenIds } from './package-manifest.js';
import { expertLayout, halfWeights, PRECISIONS } from './precision.js';
import { dequantised, quantise } from './quantise.js';
import { QuantisePool } from './quantise-pool.js';

/** `rows * cols` standard normal values from a fixed seed (a 32-bit LCG through Box-Muller). */
function gaussian(rows: number, cols: number, seed: number): Float32Array {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
  return Float32Array.from({ length: rows * cols }, () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()));
}

/** Sum of squared differences of `[rows, k]` matrices, per block of `block` along k. */
function blockErrors(a: Float32Array, b: Float32Array, rows: number, k: number, block: number): number[] {
  const errors: number[] = [];
  for (let row = 0; row < rows; row++) {
    for (let start = 0; start < k; start += block) {
      let sum = 0;
      for (let i = start; i < Math.min(k, start + block); i++) sum += (a[row * k + i]! - b[row * k + i]!) ** 2;
      errors.push(sum);
    }
  }
  return errors;
}

/** Rounding each block to steps of its max|w|/7, the plain symmetric 4-bit quantiser. */
function plainQuantised(weight: Float32Array, rows: number, k: number, block: number): Float32Array {
  const out = new Float32Array(weight.length);
  for (let row = 0; row < rows; row++) {
    for (let start = 0; start < k; start += block) {
      const end = Math.min(k, start + block);
      let peak = 0;
      for (let i = start; i < end; i++) peak = Math.max(peak, Math.abs(weight[row * k + i]!));
      const scale = peak / 7;
      for (let i = start; i < end; i++) out[row * k + i] = Math.min(7, Math.max(-8, Math.round(weight[row * k + i]! / scale))) * scale;
    }
  }
  return out;
}

/** MLAS's 4-bit GEMM re-quantising each block from its dequantised values: scale = the value of largest magnitude / -8, round to nearest within [-8, 7]. */
function mlasRepacked(values: Float32Array, block: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let start = 0; start < values.length; start += block) {
    let peak = 0;
    for (let i = start; i < start + block; i++) if (Math.abs(values[i]!) > Math.abs(peak)) peak = values[i]!;
    const scale = peak / -8;
    for (let i = start; i < start + block; i++) {
      const q = scale === 0 ? 0 : Math.min(15, Math.max(0, Math.floor(values[i]! / scale + 8.5))) - 8;
      out[i] = q * scale;
    }
  }
  return out;
}

/** numpy's rint: halves to the even neighbour. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const fraction = value - floor;
  return fraction > 0.5 || (fraction === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
}

const largest = (values: Float32Array) => values.reduce((most, v) => Math.max(most, Math.abs(v)), 0);
const maxDifference = (a: Float32Array, b: Float32Array) => a.reduce((most, v, i) => Math.max(most, Math.abs(v - b[i]!)), 0);
const squaredError = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + (v - b[i]!) ** 2, 0);

describe('quantise', () => {
  it('errs in each block no more than rounding to steps of its largest value, and less in all', () => {
    const weight = gaussian(48, 100, 0);
    const q = quantise(weight, 48, 100, 32);
    expect([q.packed.length, q.scales.length]).toEqual([48 * 4 * 16, 48 * 4]);
    const ours = blockErrors(dequantised(q, 100), weight, 48, 100, 32);
    const plain = blockErrors(plainQuantised(weight, 48, 100, 32), weight, 48, 100, 32);
    ours.forEach((error, i) => expect(error).toBeLessThanOrEqual(plain[i]! + 1e-6));
    expect(ours.reduce((a, b) => a + b)).toBeLessThan(plain.reduce((a, b) => a + b));
  });

  it('packs the first value of a pair in the low nibble', () => {
    const q = quantise(Float32Array.from([7, -7, ...new Array<number>(30).fill(0)]), 1, 32, 32);
    const [low, high] = [7, -7].map((v) => Math.round(v / q.scales[0]!) + 8);
    expect(q.packed[0]).toBe(low! | (high! << 4));
  });

  it('gives signed scales that survive MLAS re-packing, where symmetric ones round again', () => {
    const weight = gaussian(64, 256, 2);
    for (const block of [32, 64, 128]) {
      const signed = dequantised(quantise(weight, 64, 256, block, 4, true), 256);
      const symmetric = dequantised(quantise(weight, 64, 256, block), 256);
      expect(maxDifference(mlasRepacked(signed, block), signed), `block ${block}`).toBeLessThan(1e-6 * largest(signed));
      expect(maxDifference(mlasRepacked(symmetric, block), symmetric), `block ${block}`).toBeGreaterThan(0.05 * largest(symmetric));
      // and they err less: all sixteen levels are used
      expect(squaredError(signed, weight)).toBeLessThan(squaredError(symmetric, weight));
    }
  });

  it('stores 8-bit values as bytes around 128, erring less than 4-bit', () => {
    const weight = gaussian(16, 64, 1);
    const q8 = quantise(weight, 16, 64, 64, 8);
    const q4 = quantise(weight, 16, 64, 64);
    expect(q8.packed.length).toBe(16 * 64);
    for (let row = 0; row < 16; row++) {
      for (let i = 0; i < 64; i++) {
        const expected = Math.min(127, Math.max(-128, roundHalfEven(weight[row * 64 + i]! / q8.scales[row]!)));
        expect(q8.packed[row * 64 + i]! - 128).toBe(expected);
      }
    }
    expect(maxDifference(dequantised(q8, 64), weight)).toBeLessThan(maxDifference(dequantised(q4, 64), weight) / 8);
  });
});

describe('QuantisePool', () => {
  it('gives the bytes of one thread, its matrices split into runs of rows across three workers', () => {
    const pool = new QuantisePool(3);
    try {
      // a padded last block, signed scales, 8 bits per column, and a matrix too small to split
      const cases: [number, number, number, 4 | 8, boolean][] = [[517, 100, 32, 4, false], [700, 256, 128, 4, true], [301, 96, 96, 8, false], [40, 64, 32, 4, false]];
      const weights = cases.map(([rows, k]) => gaussian(rows, k, rows));
      const one = cases.map(([rows, k, block, bits, signed], i) => quantise(weights[i]!, rows, k, block, bits, signed));
      const same = (a: ReturnType<typeof quantise>, b: ReturnType<typeof quantise>, label: string) => {
        expect(Buffer.from(a.packed).equals(Buffer.from(b.packed)), label).toBe(true);
        expect(Buffer.from(a.scales.buffer).equals(Buffer.from(b.scales.buffer)), label).toBe(true);
        expect([a.rows, a.blocks, a.bits], label).toEqual([b.rows, b.blocks, b.bits]);
      };
      cases.forEach(([rows, k, block, bits, signed], i) => same(pool.quantise(weights[i]!, rows, k, block, bits, signed), one[i]!, `${rows} x ${k}`));
      // several matrices in flight at once come back in order
      const inTurn = [...pool.inTurn(cases.length, (i) => [weights[i]!, ...cases[i]!] as const)];
      inTurn.forEach((q, i) => same(q, one[i]!, `in turn, ${cases[i]![0]} x ${cases[i]![1]}`));
    } finally {
      pool.close();
    }
  });
});

describe('expertLayout', () => {
  it('takes the largest MLAS block that fits twice into both expert widths, else 8 bits per column', () => {
    const cases: [number, number, { bits: number; blockSize: number; signed: boolean }][] = [
      [1280, 896, { bits: 4, blockSize: 128, signed: true }],
      [256, 128, { bits: 4, blockSize: 64, signed: true }],
      [64, 32, { bits: 8, blockSize: 0, signed: false }],
      [1280, 128, { bits: 4, blockSize: 64, signed: true }],
    ];
    for (const [hidden, inner, layout] of cases) {
      expect(expertLayout(PRECISIONS.int4, { ...DECODER_DEFAULTS, hidden_size: hidden, moe_intermediate_size: inner }), `${hidden} x ${inner}`).toEqual(layout);
    }
    expect(expertLayout({ ...PRECISIONS.int4, expertBits: 8 }, DECODER_DEFAULTS)).toEqual({ bits: 8, blockSize: 0, signed: false });
    expect(expertLayout({ ...PRECISIONS.int4, expertBlockSize: 32 }, DECODER_DEFAULTS)).toEqual({ bits: 4, blockSize: 32, signed: true });
    expect(expertLayout({ ...PRECISIONS.int4, expertBlockSize: 16 }, DECODER_DEFAULTS)).toEqual({ bits: 4, blockSize: 16, signed: false });
  });
});

describe('halfWeights', () => {
  it('keeps bf16 weights within fp16 range exactly', () => {
    // bf16 values: 8 bits of mantissa, exact in fp16 above its subnormals
    const bf16 = Float32Array.from([0.10009765625, -3.703125, 0.00099945068359375, 2.5033950805664062e-5, 59904]);
    const half = halfWeights('w', bf16);
    const back = new Float32Array(new Float32Array(half.length).map((_, i) => {
      const h = half[i]!, sign = h & 0x8000 ? -1 : 1, exponent = (h >> 10) & 0x1f, fraction = h & 0x3ff;
      return sign * (exponent === 0 ? fraction * 2 ** -24 : (1 + fraction / 1024) * 2 ** (exponent - 15));
    }));
    expect([...back]).toEqual([...bf16]);
  });

  it('refuses a weight beyond fp16 range by name, and says which precision takes it', () => {
    expect(() => halfWeights('model.norm.weight', Float32Array.from([1, -70000]))).toThrow(/weight model\.norm\.weight: \|value\| 7e\+04 exceeds .*--precision fp32/);
  });
});

describe('bannedTokenIds', () => {
  it('lists the ids below the vocabulary size that the tokenizer has no token for', () => {
    expect(bannedTokenIds({ model: { vocab: { a: 0, b: 1, c: 4 } }, added_tokens: [{ id: 5, content: '<x>' }] } as never, 9)).toEqual([[2, 4], [6, 9]]);
  });
});
