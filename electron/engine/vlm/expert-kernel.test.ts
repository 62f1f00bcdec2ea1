import { describe, expect, it } from 'vitest';
import type { GraphSpec } from '../../core/model/manifest.js';
import { withExpertKernel } from './expert-kernel.js';

const signed4 = { routed_experts: { bits: 4, block_size: 64, scales: 'signed' } } as unknown as GraphSpec;
const variable = () => process.env.ORT_USE_MLAS_Q4_GEMM_MOE;

describe('withExpertKernel', () => {
  it('lets no creation see the variable another one set, however their awaits interleave', async () => {
    const seen: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const first = withExpertKernel(signed4, async () => {
      seen.push(`decoder before: ${variable()}`);
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      seen.push(`decoder after: ${variable()}`);
    });
    // queued while the decoder's creation is still awaiting
    const second = withExpertKernel(undefined, async () => {
      seen.push(`vision: ${variable()}`);
    });
    await new Promise((resolve) => setImmediate(resolve));
    releaseFirst();
    await Promise.all([first, second]);
    expect(seen).toEqual(['decoder before: 1', 'decoder after: 1', 'vision: 0']);
    expect(variable()).toBeUndefined();
  });

  it('goes on after a creation that fails', async () => {
    await expect(withExpertKernel(signed4, () => Promise.reject(new Error('no such file')))).rejects.toThrow('no such file');
    await expect(withExpertKernel(signed4, async () => variable())).resolves.toBe('1');
  });
});
