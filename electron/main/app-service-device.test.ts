import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const built = (file: string) => path.join(root, 'dist', file);
const nanoPackage = path.join(root, 'tools/model/fixtures/nano');

let dataDir: string;

beforeAll(async () => {
  if (!existsSync(built('electron/main/app-service.js'))) throw new Error('The app service is not built; run "npm run build" before these tests.');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-device-'));
});

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/**
 * The app service as Electron main and the bridge run it, in a process of its own: what it answers,
 * and whether ONNX Runtime's native library was mapped into that process (Linux's /proc/self/maps).
 */
const SCRIPT = `
import { readFileSync } from 'node:fs';
const [dataDir, serviceModule, forkModule, modelFolder] = process.argv.slice(1);
const { AppService } = await import(serviceModule);
const { forkHost } = await import(forkModule);
const service = await AppService.start({ dataDir, version: '0.0.0', spawnHost: (env) => forkHost({ env: { ...process.env, ...env } }) });
const info = await service.appInfo();
const check = await service.checkModelFolder(modelFolder);
await service.useModelFolder(modelFolder);
await service.setSettings({ device: 'cpu' });
const named = await service.appInfo();
await service.setSettings({ device: 'cuda:9' });
const absent = await service.appInfo();
await service.close();
const onnxRuntimeLoaded = readFileSync('/proc/self/maps', 'utf8').includes('onnxruntime');
console.log(JSON.stringify({ info, check, named, absent, onnxRuntimeLoaded }));
`;

describe.runIf(process.platform === 'linux')('the app service and ONNX Runtime', () => {
  it('asks an engine host what the device setting does on this machine and checks a model folder, never loading ONNX Runtime itself', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', SCRIPT, dataDir, built('electron/main/app-service.js'), built('electron/core/engine-client/fork-host.js'), nanoPackage],
      { cwd: root },
    );
    type Info = { device: string; deviceReason: string };
    const answer = JSON.parse(stdout) as { info: Info; check: { problem: string | null }; named: Info; absent: Info; onnxRuntimeLoaded: boolean };
    // the device setting is auto: with one device (the CPU is always there) that one, with more no fixed choice but what auto will measure
    if (answer.info.device === 'auto') expect(answer.info.deviceReason).toMatch(/^auto measures a typical page on each of .*cpu the first time a package opens/);
    else expect(answer.info).toMatchObject({ device: 'cpu', deviceReason: expect.stringMatching(/^auto: cpu, the only device that answered/) });
    expect(answer.check.problem).toBeNull();
    // another device setting asks again
    expect(answer.named).toMatchObject({ device: 'cpu', deviceReason: 'the CPU was asked for' });
    expect(answer.absent).toMatchObject({ device: 'unavailable', deviceReason: expect.stringMatching(/^device cuda:9: /) });
    expect(answer.onnxRuntimeLoaded).toBe(false);
  });
});
