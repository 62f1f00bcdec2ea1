/**
 * ONNX Runtime 1.30's CPU `QMoE` runs 4-bit routed experts through MLAS's own 4-bit GEMM only when
 * `ORT_USE_MLAS_Q4_GEMM_MOE=1` as the session is created. Otherwise it dequantises each chosen
 * expert on every pass: one token through a real-width layer's 64 experts took 52 ms in blocks of
 * 128, against 2.4 ms with that kernel. The kernel re-packs the experts into MLAS's blocks (scale =
 * the block's largest-magnitude value / -8), which keeps their values only where the exporter stored
 * them that way (`scales: 'signed'`); from any other layout it would round them a second time, so
 * those graphs are created with it off.
 */

import type { GraphSpec } from '../../core/model/manifest.js';

const MLAS_EXPERT_GEMM = 'ORT_USE_MLAS_Q4_GEMM_MOE';
const MLAS_BLOCKS = new Set([32, 64, 128]);

/** Whether `graph`'s routed experts are in the form MLAS's 4-bit GEMM re-packs without loss. */
export function mlasExpertGemm(graph: GraphSpec | undefined): boolean {
  const experts = graph?.routed_experts;
  return experts !== undefined && experts.bits === 4 && experts.scales === 'signed' && MLAS_BLOCKS.has(experts.block_size);
}

/** The end of the last creation queued: each waits for the one before it. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * `create()` (a session of `graph`) with the kernel chosen for its experts. The variable is read
 * while the session is created, so it is set around that alone, and creations wait for each other:
 * a vision graph opened lazily while the decoder is created cannot change the decoder's kernel.
 * Sessions created elsewhere (the lite OCR workers, the provider probes) hold no `QMoE`, which is
 * all the variable touches.
 */
export function withExpertKernel<T>(graph: GraphSpec | undefined, create: () => Promise<T>): Promise<T> {
  const run = async (): Promise<T> => {
    const previous = process.env[MLAS_EXPERT_GEMM];
    process.env[MLAS_EXPERT_GEMM] = mlasExpertGemm(graph) ? '1' : '0';
    try {
      return await create();
    } finally {
      if (previous === undefined) delete process.env[MLAS_EXPERT_GEMM];
      else process.env[MLAS_EXPERT_GEMM] = previous;
    }
  };
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}
