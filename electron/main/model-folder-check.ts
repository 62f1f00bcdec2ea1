/**
 * Checks a model package folder as the user picks or types it, so the settings panel can say what
 * is wrong (the loader's message: file, fault, remedy) before the first page fails on it. A demo
 * model's package comes back with its label, so the app never names it without saying what it is.
 */

import os from 'node:os';
import path from 'node:path';
import type { ModelFolderCheck } from '../../shared/app-api.js';
import { DEMO_MODEL_NAMES, findDemoModel } from '../../shared/demo-models.js';
import { checkModelPackage } from '../core/model/package-files.js';
import { readRecord } from '../core/model/installed-models.js';
import { currentDemoModelSearch, demoModelAt, demoModelPackage, demoModelPlaces, DemoModelNotInstalledError, type DemoModelSearch } from '../core/model/demo-model-location.js';

export async function checkModelFolder(folder: string, search: DemoModelSearch = currentDemoModelSearch()): Promise<ModelFolderCheck> {
  const dir = path.resolve(expandHome(folder.trim()));
  const demo = demoModelAt(dir, search);
  const record = await readRecord(dir);
  const label = { ...(demo && { demoLabel: demo.label }), ...(record && { installedAs: `${record.id} (${record.precision})` }) };
  try {
    await checkModelPackage(dir);
    return { folder: dir, problem: null, ...label };
  } catch (error) {
    return { folder: dir, problem: error instanceof Error ? error.message : String(error), ...label };
  }
}

/** `~` and `~/...` as a shell reads them: people type model folders so. */
export function expandHome(folder: string): string {
  return folder === '~' || folder.startsWith('~/') ? path.join(os.homedir(), folder.slice(1)) : folder;
}

/** A demo model's package, found by name and checked like a chosen folder; `problem` says when it is not installed. */
export async function checkDemoModel(name: string, search: DemoModelSearch = currentDemoModelSearch()): Promise<ModelFolderCheck> {
  const model = findDemoModel(name);
  // request-schemas.ts lets only demo names through
  if (!model) throw new Error(`no demo model is called "${name}"; Folio has ${DEMO_MODEL_NAMES.join(', ')}`);
  let dir: string;
  try {
    dir = demoModelPackage(model, search);
  } catch (error) {
    if (!(error instanceof DemoModelNotInstalledError)) throw error;
    return { folder: demoModelPlaces(model, search)[0] ?? model.folder, problem: error.message, demoLabel: model.label };
  }
  return { ...(await checkModelFolder(dir, search)), demoLabel: model.label };
}
