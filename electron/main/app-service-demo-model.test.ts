/**
 * The nano demo model chosen in the app by name: main finds its package (here a copy of the tiny
 * package under FOLIO_DEMO_MODELS, standing in for nano), checks it like a chosen folder, saves it
 * as the model, and labels it wherever the folder is checked.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findDemoModel } from '../../shared/demo-models.js';
import { forkHost } from '../core/engine-client/fork-host.js';
import { AppService } from './app-service.js';

const root = path.resolve(import.meta.dirname, '../..');
const builtHost = path.join(root, 'dist/electron/engine/host.js');
const tinyPackage = path.join(root, 'tools/model/fixtures/tiny');
const label = findDemoModel('nano-demo')!.label;

let scratch: string;
let standIns: string;
const services: AppService[] = [];

beforeAll(async () => {
  if (!existsSync(builtHost)) throw new Error(`${builtHost} is missing; run "npm run build" before these tests.`);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-app-demo-'));
  standIns = path.join(scratch, 'demo-models');
  await cp(tinyPackage, path.join(standIns, 'nano'), { recursive: true });
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  delete process.env.FOLIO_DEMO_MODELS;
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function startService(): Promise<AppService> {
  const service = await AppService.start({
    dataDir: await mkdtemp(path.join(scratch, 'data-')),
    version: '0.0.0-test',
    spawnHost: (env) => forkHost({ modulePath: builtHost, env }),
    probeDevice: async () => ({ device: 'cpu', reason: 'test' }),
  });
  services.push(service);
  return service;
}

describe('AppService demo model', () => {
  it('saves the nano demo package as the model and labels it as trained on synthetic pages only', async () => {
    process.env.FOLIO_DEMO_MODELS = standIns;
    const service = await startService();
    const nano = path.join(standIns, 'nano');
    expect(await service.useDemoModel('nano-demo')).toEqual({ folder: nano, problem: null, demoLabel: label });
    expect((await service.getSettings()).modelDir).toBe(nano);
    // the folder as saved, or typed back, still names the demo; any other package does not
    expect(await service.checkModelFolder(nano)).toEqual({ folder: nano, problem: null, demoLabel: label });
    expect(await service.checkModelFolder(tinyPackage)).toEqual({ folder: tinyPackage, problem: null });
  });

  it('says the demo is not installed, and where it looked, and keeps the model already set', async () => {
    process.env.FOLIO_DEMO_MODELS = path.join(scratch, 'no-demo-models');
    const service = await startService();
    await service.useModelFolder(tinyPackage);
    const check = await service.useDemoModel('nano-demo');
    expect(check.problem).toBe(
      `the nano-demo model is not installed: no model package (manifest.json) in ${path.join(scratch, 'no-demo-models', 'nano')}; ` +
        'use a Folio build that ships it, or export it with tools/model into tools/model/fixtures/nano',
    );
    expect((await service.getSettings()).modelDir).toBe(tinyPackage);
  });
});
