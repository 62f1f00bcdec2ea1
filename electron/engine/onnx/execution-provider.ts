/**
 * Which ONNX Runtime execution provider Folio gets on this machine, and why. CUDA is tried first (its
 * libraries come from `npm run install:gpu`), then the CPU, which is always there.
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { identityModel } from './probe-model.js';

export interface ExecutionProviderChoice {
  provider: 'cuda' | 'cpu';
  /** `cuda:0`, `cpu`. */
  device: string;
  /** Why this provider: what was tried and what answered. */
  reason: string;
  runtimeVersion: string;
}

const ortBinDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json')),
  'bin',
  'napi-v6',
  process.platform,
  process.arch,
);

export function cudaLibrariesInstalled(): boolean {
  return existsSync(path.join(ortBinDir, 'libonnxruntime_providers_cuda.so'));
}

export async function chooseExecutionProvider(deviceId = 0): Promise<ExecutionProviderChoice> {
  const runtimeVersion = ort.env.versions.node ?? 'unknown';
  const cpu = (reason: string): ExecutionProviderChoice => ({ provider: 'cpu', device: 'cpu', reason, runtimeVersion });
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return cpu(`CUDA provider is only built for Linux x64 (this is ${process.platform} ${process.arch})`);
  }
  if (!cudaLibrariesInstalled()) {
    return cpu('CUDA libraries not installed (run `npm run install:gpu` on a machine with internet)');
  }
  try {
    const session = await ort.InferenceSession.create(identityModel(), {
      executionProviders: [{ name: 'cuda', deviceId }],
    });
    await session.release();
    return { provider: 'cuda', device: `cuda:${deviceId}`, reason: `CUDA device ${deviceId} answered`, runtimeVersion };
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return cpu(`CUDA libraries installed but the CUDA provider did not start: ${detail}`);
  }
}

/** Proves the CPU provider works by running the probe model once. */
export async function checkCpuProvider(): Promise<void> {
  const session = await ort.InferenceSession.create(identityModel(), { executionProviders: ['cpu'] });
  const input = new ort.Tensor('float32', Float32Array.from([1.5]), [1]);
  const output = await session.run({ x: input });
  await session.release();
  if (output.y?.data[0] !== 1.5) throw new Error('ONNX Runtime CPU provider returned a wrong result');
}
