/**
 * Which ONNX Runtime execution provider Folio uses on this machine, and why. The user asks for a
 * device (`auto`, `cpu`, `webgpu`, `cuda[:N]`); a named device that does not start is an error naming
 * what failed. `auto` is no fixed order: it lists the devices that answer here (`availableDevices`)
 * and measures them on the package (vlm/device-calibration.ts).
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import type { NamedDeviceRequest } from '../../../shared/device.js';
import { FailureError } from '../../core/failure-error.js';
import { identityModel } from './probe-model.js';

export type ProviderName = 'cuda' | 'webgpu' | 'cpu';

export interface ExecutionProviderChoice {
  provider: ProviderName;
  /** `cuda:0`, `webgpu`, `cpu`. */
  device: string;
  /** Why this provider: what was asked, what was tried and what answered. */
  reason: string;
  runtimeVersion: string;
}

/** An explicitly requested device that cannot be used here: what failed, and (worded by each face) to choose another. */
function deviceUnavailable(device: string, problem: string): FailureError {
  return new FailureError('model-package', `device ${device}: ${problem}`, 'device');
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

function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** Why CUDA cannot start, or null when its probe ran. */
async function cudaProblem(deviceId: number): Promise<string | null> {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the CUDA provider is only built for Linux x64 (this is ${process.platform} ${process.arch})`;
  if (!cudaLibrariesInstalled()) return 'CUDA libraries not installed (run `npm run install:gpu` on a machine with internet)';
  try {
    const session = await ort.InferenceSession.create(identityModel(), { executionProviders: [{ name: 'cuda', deviceId }] });
    await session.release();
    return null;
  } catch (error) {
    return `CUDA libraries installed but the CUDA provider did not start: ${firstLine(error)}`;
  }
}

/** Why WebGPU cannot start (no adapter, no Vulkan driver...), or null when its probe ran. */
export async function webgpuProblem(): Promise<string | null> {
  try {
    const session = await ort.InferenceSession.create(identityModel(), { executionProviders: ['webgpu'] });
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.of(1.5), [1]) });
    await session.release();
    return out.y?.data[0] === 1.5 ? null : 'the WebGPU provider returned a wrong result';
  } catch (error) {
    return `the WebGPU provider did not start (no WebGPU adapter: on Linux it needs a Vulkan driver, and XDG_RUNTIME_DIR set): ${firstLine(error)}`;
  }
}

/** The ONNX Runtime this process loaded, e.g. `1.30.0`. */
export function runtimeVersion(): string {
  return ort.env.versions.node ?? 'unknown';
}

/** Starts a named device's provider, or says why it does not start. */
export async function startExecutionProvider(request: NamedDeviceRequest): Promise<ExecutionProviderChoice> {
  const choice = (provider: ProviderName, device: string, reason: string): ExecutionProviderChoice => ({ provider, device, reason, runtimeVersion: runtimeVersion() });
  switch (request.kind) {
    case 'cpu':
      return choice('cpu', 'cpu', 'the CPU was asked for');
    case 'webgpu': {
      const problem = await webgpuProblem();
      if (problem) throw deviceUnavailable('webgpu', problem);
      return choice('webgpu', 'webgpu', 'WebGPU was asked for and its adapter answered');
    }
    case 'cuda': {
      const problem = await cudaProblem(request.deviceId);
      if (problem) throw deviceUnavailable(`cuda:${request.deviceId}`, problem);
      return choice('cuda', `cuda:${request.deviceId}`, `CUDA device ${request.deviceId} was asked for and answered`);
    }
  }
}

/** A provider that answered its probe here, as a device request and its name in messages. */
export interface AvailableDevice {
  request: NamedDeviceRequest;
  device: string;
}

/**
 * The devices `auto` may measure: WebGPU when an adapter answers, CUDA when its libraries load and
 * its provider starts, and the CPU, always there; with why each missing one is missing.
 */
export async function availableDevices(cudaDeviceId = 0): Promise<{ devices: AvailableDevice[]; missing: string[] }> {
  const [webgpu, cuda] = await Promise.all([webgpuProblem(), cudaProblem(cudaDeviceId)]);
  const devices: AvailableDevice[] = [];
  const missing: string[] = [];
  if (webgpu) missing.push(`webgpu: ${webgpu}`);
  else devices.push({ request: { kind: 'webgpu' }, device: 'webgpu' });
  if (cuda) missing.push(`cuda:${cudaDeviceId}: ${cuda}`);
  else devices.push({ request: { kind: 'cuda', deviceId: cudaDeviceId }, device: `cuda:${cudaDeviceId}` });
  devices.push({ request: { kind: 'cpu' }, device: 'cpu' });
  return { devices, missing };
}

/** Proves the CPU provider works by running the probe model once. */
export async function checkCpuProvider(): Promise<void> {
  const session = await ort.InferenceSession.create(identityModel(), { executionProviders: ['cpu'] });
  const input = new ort.Tensor('float32', Float32Array.from([1.5]), [1]);
  const output = await session.run({ x: input });
  await session.release();
  if (output.y?.data[0] !== 1.5) throw new Error('ONNX Runtime CPU provider returned a wrong result');
}
