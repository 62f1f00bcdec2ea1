/**
 * Where a demo model's package lives: in the packaged app's resources (`models/<folder>`, see
 * electron-builder.yml), else in the repository's `tools/model/fixtures/<folder>` when Folio runs
 * from a checkout (the TypeScript sources under vitest or the built `dist/`). FOLIO_DEMO_MODELS,
 * when set, is the only place looked in, so tests can stand a package in for one not yet built.
 */

import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { DEMO_MODELS, findDemoModel, type DemoModel } from '../../../shared/demo-models.js';

export interface DemoModelSearch {
  /** FOLIO_DEMO_MODELS: a folder of demo packages by folder name. */
  override?: string;
  /** Electron's `process.resourcesPath`; absent in plain Node. */
  resourcesPath?: string;
  /** Where this module is; the repository is its nearest ancestor holding a package.json. */
  moduleDir: string;
}

export interface LocatedDemoModel {
  model: DemoModel;
  dir: string;
}

/** A demo model Folio knows by name whose package is in none of the places it looks. */
export class DemoModelNotInstalledError extends Error {
  override readonly name = 'DemoModelNotInstalledError';
}

export function currentDemoModelSearch(env: NodeJS.ProcessEnv = process.env): DemoModelSearch {
  return {
    override: env.FOLIO_DEMO_MODELS || undefined,
    resourcesPath: (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath,
    moduleDir: import.meta.dirname,
  };
}

/** The package folders tried for a demo model, first match wins. */
export function demoModelPlaces(model: DemoModel, search: DemoModelSearch): string[] {
  if (search.override) return [path.resolve(search.override, model.folder)];
  const places: string[] = [];
  if (search.resourcesPath) places.push(path.join(search.resourcesPath, 'models', model.folder));
  const repository = repositoryRoot(search.moduleDir);
  if (repository) places.push(path.join(repository, 'tools/model/fixtures', model.folder));
  return places;
}

/**
 * The demo model called `name` and its package folder; undefined when no demo has that name.
 * Throws DemoModelNotInstalledError, naming the places tried, when the name is known but its package is absent.
 */
export function locateDemoModel(name: string, search: DemoModelSearch = currentDemoModelSearch()): LocatedDemoModel | undefined {
  const model = findDemoModel(name);
  return model && { model, dir: demoModelPackage(model, search) };
}

/** The demo model's package folder; throws DemoModelNotInstalledError, naming the places tried, when it is in none. */
export function demoModelPackage(model: DemoModel, search: DemoModelSearch = currentDemoModelSearch()): string {
  const places = demoModelPlaces(model, search);
  const dir = places.find(holdsPackage);
  if (dir) return dir;
  throw new DemoModelNotInstalledError(
    `the ${model.name} model is not installed: no model package (manifest.json) in ${places.join(' or ') || 'any known place'}; ` +
      'use a Folio build that ships it, or export it with tools/model into tools/model/fixtures/' +
      model.folder,
  );
}

/** Which demo model's package `dir` is, if any: how the app knows to show the demo label for a folder it holds. */
export function demoModelAt(dir: string, search: DemoModelSearch = currentDemoModelSearch()): DemoModel | undefined {
  const target = canonical(dir);
  return DEMO_MODELS.find((model) => demoModelPlaces(model, search).some((place) => holdsPackage(place) && canonical(place) === target));
}

function holdsPackage(dir: string): boolean {
  return existsSync(path.join(dir, 'manifest.json'));
}

function canonical(dir: string): string {
  const resolved = path.resolve(dir);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

function repositoryRoot(start: string): string | undefined {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}
