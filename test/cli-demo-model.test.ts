/**
 * `folio convert --model nano-demo`: the demo model selected by name, with a copy of the tiny
 * package standing in for nano under FOLIO_DEMO_MODELS (the CLI test needs no trained model).
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDemoModel } from '../shared/demo-models.js';
import { repoRoot, runFolio } from './folio-process.js';

const pdf = path.join(repoRoot, 'test/fixtures/out/headings.pdf');
const label = findDemoModel('nano-demo')!.label;

let folder: string;
let standIns: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-demo-'));
  standIns = path.join(folder, 'demo-models');
  await cp(path.join(repoRoot, 'tools/model/fixtures/tiny'), path.join(standIns, 'nano'), { recursive: true });
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

type Event = { event: string; stats?: { engine: string; tokens?: number; decode?: { model?: string } } };

describe('folio convert --model nano-demo', () => {
  it('converts a page with the demo package found by name, and says once that it is a demo trained on synthetic pages only', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'out'), '--model', 'nano-demo', '--engine', 'vlm', '--max-tokens', '16', '--json'], {
      FOLIO_DEMO_MODELS: standIns,
    });
    expect(run.code, run.stderr).toBe(0);
    const done = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Event).filter((event) => event.event === 'page-done');
    expect(done).toHaveLength(1);
    expect(done[0]?.stats).toMatchObject({ engine: 'vlm', tokens: 16, decode: { model: 'folio-tiny' } });
    expect(run.stderr.split(label)).toHaveLength(2);
    expect(run.stderr).toContain(`folio: ${label}.`);
  });

  it('exits 2 naming where it looked when the demo package is not installed', async () => {
    const nowhere = path.join(folder, 'no-demo-models');
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'missing'), '--model', 'nano-demo'], { FOLIO_DEMO_MODELS: nowhere });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `folio: --model nano-demo: the nano-demo model is not installed: no model package (manifest.json) in ${path.join(nowhere, 'nano')}; ` +
        'use a Folio build that ships it, or export it with tools/model into tools/model/fixtures/nano.',
    );
  });

  it('takes a folder called nano-demo in the working directory as that folder, not the demo', async () => {
    const cwd = path.join(folder, 'with-folder');
    await mkdir(path.join(cwd, 'nano-demo'), { recursive: true });
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'local'), '--model', 'nano-demo', '--max-tokens', '16'], { FOLIO_DEMO_MODELS: standIns }, cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${path.join(cwd, 'nano-demo', 'manifest.json')}: no manifest.json here`);
    expect(run.stderr).not.toContain(label);
  });

  it('keeps the missing-folder error for a name that is no demo model', async () => {
    const run = await runFolio(['convert', pdf, '-o', path.join(folder, 'unknown'), '--model', 'mega-demo', '--max-tokens', '16'], { FOLIO_DEMO_MODELS: standIns });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${path.join(repoRoot, 'mega-demo', 'manifest.json')}: no manifest.json here`);
    expect(run.stderr).not.toContain(label);
  });

  it('lists the demo names in folio convert --help', async () => {
    const run = await runFolio(['convert', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--model DIR\|REPO\|NAME[\s\S]*demo model by name: nano-demo\s+\(trained on synthetic pages\s+only/);
  });
});
