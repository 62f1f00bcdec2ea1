import { describe, expect, it } from 'vitest';
import { checkCpuProvider, chooseExecutionProvider, cudaLibrariesInstalled } from './execution-provider.js';

describe('execution provider', () => {
  it('runs the hand-encoded probe model on the CPU provider', async () => {
    await expect(checkCpuProvider()).resolves.toBeUndefined();
  });

  it('falls back to the CPU with the reason when the CUDA libraries are absent', async () => {
    const choice = await chooseExecutionProvider();
    if (cudaLibrariesInstalled()) {
      expect(choice.reason).toMatch(/CUDA/);
    } else {
      expect(choice).toMatchObject({ provider: 'cpu', device: 'cpu' });
      expect(choice.reason).toMatch(/CUDA libraries not installed/);
    }
  });
});
