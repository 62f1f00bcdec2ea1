/**
 * The package's precisions, how their weights are stored, and the checks on the way: a weight
 * beyond fp16's range is refused by name, since it would silently become infinity and NaN every logit.
 */

import type { ConstantTensor } from '../onnx/onnx-proto.js';
import { toHalf } from '../vlm/half-float.js';
import type { DecoderConfig } from './checkpoint-config.js';

export type PrecisionName = 'fp32' | 'fp16' | 'int4';

export interface Precision {
  name: PrecisionName;
  /** Activations, graph inputs and outputs (logits are always float32). */
  floatType: 'float32' | 'float16';
  /** Weights of the matrices that are not quantised, and of the norms. */
  weightType: 'float32' | 'float16';
  quantised: boolean;
  /** The 4-bit block along K of every matrix but the routed experts. */
  blockSize: number;
  /**
   * Bits of the routed experts; unset: 4 where MLAS's blocks fit (expertLayout). ONNX Runtime 1.30's
   * CPU QMoE runs 4-bit experts in MLAS blocks through MLAS's own 4-bit GEMM when
   * ORT_USE_MLAS_Q4_GEMM_MOE=1 (the runtime sets it for graphs whose experts are in that form): one
   * token through a real-width layer's 64 experts took 2.4 ms in blocks of 128 against 5.1 ms with 8
   * bits per column, the fastest 8-bit layout. The price is memory: QMoE also keeps them unpacked.
   */
  expertBits?: 4 | 8;
  /** The routed experts' block along K; 0: one scale per output column. Unset: chosen by expertLayout. */
  expertBlockSize?: number;
  /**
   * The vision encoder's linear layers as 8-bit MatMulNBits (int4 packages): a real-width
   * vision_1024 session took 0.65 GB instead of 1.9 and peaked at 1.5 GB instead of 2.8 over a view,
   * in 14 s instead of 20 on a 2-core machine; its features kept a cosine of 0.9998.
   */
  visionLinearBits?: 8;
  /**
   * MatMulNBits `accuracy_level` 4: activations quantised to int8 per block, the CPU's integer dot
   * products; the other matrices of a real-width decoder step took 40 ms of kernel time instead of 65.
   */
  accuracyLevel: number;
}

export const PRECISIONS: Readonly<Record<PrecisionName, Precision>> = {
  fp32: { name: 'fp32', floatType: 'float32', weightType: 'float32', quantised: false, blockSize: 32, accuracyLevel: 4 },
  fp16: { name: 'fp16', floatType: 'float16', weightType: 'float16', quantised: false, blockSize: 32, accuracyLevel: 4 },
  // int4 weights with float32 activations: the CPU provider runs them as they are, and WebGPU too
  int4: { name: 'int4', floatType: 'float32', weightType: 'float32', quantised: true, blockSize: 32, visionLinearBits: 8, accuracyLevel: 4 },
};

/**
 * Which execution providers each precision is meant for, as the manifest records it. fp16 needs a GPU
 * to pay: ONNX Runtime's CPU provider computes it but has few fp16 kernels; WebGPU has no float `MoE`
 * kernel at all, so it runs int4.
 */
export const PROVIDERS: Readonly<Record<PrecisionName, readonly string[]>> = { fp32: ['cpu', 'cuda'], fp16: ['cuda'], int4: ['cpu', 'webgpu', 'cuda'] };

/**
 * The blocks MLAS's 4-bit GEMM takes, largest first: 128 ran 2.4 ms a token through a real-width
 * layer's experts, 64 3.7 ms, 32 4.0 ms. ONNX Runtime 1.30's QMoE gives NaN through that kernel when
 * a matrix's K is a single block, so a block must fit at least twice into both of the experts' widths.
 */
const MLAS_EXPERT_BLOCKS = [128, 64, 32];

function mlasBlock(block: number, decoder: DecoderConfig): boolean {
  return MLAS_EXPERT_BLOCKS.includes(block) && [decoder.hidden_size, decoder.moe_intermediate_size].every((w) => w % block === 0 && w >= 2 * block);
}

/** How the routed experts are stored, as the manifest's `routed_experts` records it. */
export interface ExpertLayout {
  bits: 4 | 8;
  /** 0: one scale per output column. */
  blockSize: number;
  /** Signed scales in a block MLAS's 4-bit GEMM takes: the runtime hands them to that kernel without loss (vlm/expert-kernel.ts). */
  signed: boolean;
}

/** The routed experts' bits and block: by default 4 bits in the largest MLAS block that fits, else 8 bits per column (the tiny test models). */
export function expertLayout(precision: Precision, decoder: DecoderConfig): ExpertLayout {
  let block = precision.expertBlockSize;
  if (block === undefined) {
    const fitting = MLAS_EXPERT_BLOCKS.filter((b) => mlasBlock(b, decoder));
    block = (precision.expertBits === undefined || precision.expertBits === 4) && fitting.length ? fitting[0]! : 0;
  }
  const bits = precision.expertBits ?? (block ? 4 : 8);
  return { bits, blockSize: block, signed: bits === 4 && mlasBlock(block, decoder) };
}

export const FP16_MAX = 65504;

/** Python's `'{:.4g}'`, for the fp16 refusal's wording. */
function fourDigits(value: number): string {
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent >= -4 && exponent < 4) return String(Number(value.toPrecision(4)));
  const [mantissa, power] = value.toExponential(3).split('e') as [string, string];
  const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
  const n = Number(power);
  return `${trimmed}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}

/** The values as fp16, or an error naming the tensor when one lies beyond fp16's range. */
export function halfWeights(name: string, values: Float32Array): Uint16Array {
  let largest = 0;
  for (const v of values) if (Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
  if (largest > FP16_MAX) throw new Error(`weight ${name}: |value| ${fourDigits(largest)} exceeds fp16's largest, ${FP16_MAX}; export this checkpoint with --precision fp32`);
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = toHalf(values[i]!);
  return out;
}

/** A weight in `type` (float32 as it is, float16 checked and rounded). */
export function storedAs(type: 'float32' | 'float16', name: string, dims: readonly number[], values: Float32Array): ConstantTensor {
  return type === 'float16' ? { type, dims, data: halfWeights(name, values) } : { type, dims, data: values };
}

/** `[rows, cols]` -> `[cols, rows]`: checkpoints store linear layers as [out, in], MatMul reads [in, out]. */
export function transposed(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) {
    const from = r * cols;
    for (let c = 0; c < cols; c++) out[c * rows + r] = values[from + c]!;
  }
  return out;
}
