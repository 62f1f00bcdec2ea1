import { describe, expect, it } from 'vitest';
import { availableDevices, checkCpuProvider, cudaLibrariesInstalled } from './execution-provider.js';

describe('execution provider', () => {
  it('runs the hand-encoded probe model on the CPU provider', async () => {
    await expect(checkCpuProvider()).resolves.toBeUndefined();
  });

  it('lists the CPU among the devices that answer, and says why CUDA is missing when its libraries are absent', async () => {
    const { devices, missing } = await availableDevices();
    expect(devices.at(-1)?.device).toBe('cpu');
    if (!cudaLibrariesInstalled()) expect(missing).toContainEqual(expect.stringMatching(/^cuda:0: CUDA libraries not installed/));
  });
});
