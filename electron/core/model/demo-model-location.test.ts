import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDemoModel } from '../../../shared/demo-models.js';
import { currentDemoModelSearch, demoModelAt, demoModelPlaces, DemoModelNotInstalledError, locateDemoModel } from './demo-model-location.js';

const root = path.resolve(import.meta.dirname, '../../..');
const tinyPackage = path.join(root, 'tools/model/fixtures/tiny');
const nano = findDemoModel('nano-demo')!;

let scratch: string;
/** FOLIO_DEMO_MODELS as the tests use it: a copy of the tiny package standing in for nano. */
let standIns: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-demo-location-'));
  standIns = path.join(scratch, 'stand-ins');
  await cp(tinyPackage, path.join(standIns, 'nano'), { recursive: true });
});

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A folder that looks like a checkout or an installed app: a package.json and, if asked, a nano package at `packageAt`. */
async function fakeTree(name: string, packageAt?: string): Promise<string> {
  const tree = path.join(scratch, name);
  await mkdir(tree, { recursive: true });
  await writeFile(path.join(tree, 'package.json'), '{}');
  if (packageAt) {
    await mkdir(path.join(tree, packageAt), { recursive: true });
    await writeFile(path.join(tree, packageAt, 'manifest.json'), '{}');
  }
  return tree;
}

describe('locateDemoModel', () => {
  it('finds the stand-in package by the demo name under FOLIO_DEMO_MODELS', () => {
    const search = currentDemoModelSearch({ FOLIO_DEMO_MODELS: standIns });
    expect(locateDemoModel('nano-demo', search)).toEqual({ model: nano, dir: path.join(standIns, 'nano') });
  });

  it('answers undefined for a name that is no demo model, whatever is installed', () => {
    const search = currentDemoModelSearch({ FOLIO_DEMO_MODELS: standIns });
    expect(locateDemoModel('nano', search)).toBeUndefined();
    expect(locateDemoModel('tools/model/fixtures/tiny', search)).toBeUndefined();
  });

  it('says the known model is not installed, and where it looked, when the package is absent', () => {
    const empty = path.join(scratch, 'no-demos');
    const search = currentDemoModelSearch({ FOLIO_DEMO_MODELS: empty });
    expect(() => locateDemoModel('nano-demo', search)).toThrow(DemoModelNotInstalledError);
    expect(() => locateDemoModel('nano-demo', search)).toThrow(`the nano-demo model is not installed: no model package (manifest.json) in ${path.join(empty, 'nano')}`);
  });

  it('looks only under FOLIO_DEMO_MODELS when it is set, not in the app or the repository', async () => {
    const app = await fakeTree('app-with-override', 'resources/models/nano');
    const search = { override: standIns, resourcesPath: path.join(app, 'resources'), moduleDir: root };
    expect(demoModelPlaces(nano, search)).toEqual([path.join(standIns, 'nano')]);
  });

  it('prefers the packaged app’s resources/models over the repository’s fixtures', async () => {
    const app = await fakeTree('app', 'resources/models/nano');
    const checkout = await fakeTree('checkout', 'tools/model/fixtures/nano');
    const search = { resourcesPath: path.join(app, 'resources'), moduleDir: path.join(checkout, 'electron/core/model') };
    expect(locateDemoModel('nano-demo', search)?.dir).toBe(path.join(app, 'resources/models/nano'));
  });

  it('falls back to the repository’s fixtures from the TypeScript sources and from dist/ alike', async () => {
    const checkout = await fakeTree('checkout-only', 'tools/model/fixtures/nano');
    const expected = path.join(checkout, 'tools/model/fixtures/nano');
    const emptyResources = path.join(scratch, 'app-without-models');
    for (const moduleDir of ['electron/core/model', 'dist/electron/core/model']) {
      expect(locateDemoModel('nano-demo', { resourcesPath: emptyResources, moduleDir: path.join(checkout, moduleDir) })?.dir).toBe(expected);
    }
  });

  it('without an override looks in this checkout’s tools/model/fixtures/nano', () => {
    expect(demoModelPlaces(nano, currentDemoModelSearch({}))).toEqual([path.join(root, 'tools/model/fixtures/nano')]);
  });
});

describe('demoModelAt', () => {
  it('recognises the demo package folder however it is written, and no other package', () => {
    const search = currentDemoModelSearch({ FOLIO_DEMO_MODELS: standIns });
    expect(demoModelAt(path.join(standIns, 'nano'), search)).toBe(nano);
    expect(demoModelAt(`${path.join(standIns, 'nano')}${path.sep}`, search)).toBe(nano);
    expect(demoModelAt(path.join(standIns, 'nano', '..', 'nano'), search)).toBe(nano);
    expect(demoModelAt(tinyPackage, search)).toBeUndefined();
    expect(demoModelAt(path.join(scratch, 'elsewhere/nano'), search)).toBeUndefined();
  });
});
