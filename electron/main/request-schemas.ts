/**
 * What each `window.folio` call may carry, checked where it crosses from the page into Node (IPC
 * in the app, the WebSocket in browser mode): a page is less trusted than main, and a malformed
 * call should fail with a message, not deep inside the service.
 */

import { z } from 'zod';
import type { FolioApi } from '../../shared/app-api.js';
import { DEMO_MODEL_NAMES, findDemoModel } from '../../shared/demo-models.js';
import { ENGINE_CHOICES } from '../../shared/engine-name.js';
import { EXPORT_FORMATS } from '../../shared/export-choices.js';
import { PAIR_FORMATS } from '../../shared/export/training-pairs.js';
import { MODEL_PRECISIONS } from '../../shared/model-library.js';

const docId = z.string().min(1).max(200);
const page = z.int().min(1);
const pages = z.array(page).max(100_000);
const precision = z.enum(MODEL_PRECISIONS);
/** A Hub repo (`owner/name[@revision]`) or a checkpoint folder. */
const modelSource = z.string().trim().min(1).max(4096);
/** An installed model's id: `owner/name`, or `local/<folder>`. */
const modelId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: 'a model id, owner/name' });

const ARGUMENTS = {
  appInfo: z.tuple([]),
  getWorkspace: z.tuple([]),
  openDocuments: z.tuple([z.array(z.string().min(1)).max(10_000)]),
  removeDocument: z.tuple([docId]),
  restoreDocument: z.tuple([docId]),
  // the messages name the rule, never the value: a password must not be echoed into a log
  unlockDocument: z.tuple([docId, z.string().min(1).max(1024)]),
  readDocument: z.tuple([docId]),
  convert: z.tuple([
    z.object({ docId, pages: pages.optional(), engine: z.enum(ENGINE_CHOICES).optional(), mode: z.string().min(1).optional() }),
  ]),
  cancel: z.tuple([docId]),
  setEdit: z.tuple([docId, page, z.string().nullable()]),
  setReviewed: z.tuple([docId, page, z.boolean()]),
  keepVersion: z.tuple([docId, page, z.int().min(1)]),
  getSettings: z.tuple([]),
  // invalid fields fall back to their defaults in parseSettings, as in a hand-edited settings file
  setSettings: z.tuple([z.record(z.string(), z.unknown())]),
  chooseExportFolder: z.tuple([]),
  defaultExportFolder: z.tuple([docId]),
  exportDocument: z.tuple([
    z.object({
      docId,
      formats: z.array(z.enum(['md', 'html', 'docx', 'tex'])).min(1).max(4),
      pages: pages.optional(),
      pageMarkers: z.boolean(),
      assets: z.boolean(),
      folder: z.string().min(1),
      overwrite: z.boolean(),
    }),
  ]),
  exportDocuments: z.tuple([
    z.object({
      docIds: z.array(docId).min(1).max(10_000),
      formats: z.array(z.enum(EXPORT_FORMATS)).min(1).max(4),
      pageMarkers: z.boolean(),
      assets: z.boolean(),
      folder: z.string().min(1),
      overwrite: z.boolean(),
    }),
  ]),
  showInFolder: z.tuple([z.string().min(1).max(4096)]),
  exportTrainingPairs: z.tuple([
    z.object({
      folder: z.string().min(1),
      format: z.enum(PAIR_FORMATS).optional(),
      imageSize: z.int().min(64).max(4096).optional(),
      validationShare: z.number().min(0).max(1),
      overwrite: z.boolean(),
    }),
  ]),
  hasApiKey: z.tuple([]),
  // the message names the rule, never the value: a malformed key must not be echoed into a log
  setApiKey: z.tuple([
    z
      .string()
      .regex(/^[\x21-\x7e]{1,4096}$/, { error: 'an API key is 1 to 4096 printable characters without spaces' })
      .nullable(),
  ]),
  testRemoteServer: z.tuple([z.string().trim().min(1).max(2048)]),
  chooseModelFolder: z.tuple([]),
  checkModelFolder: z.tuple([z.string().min(1).max(4096)]),
  // a name, never a path: main alone knows where the demo packages are
  useDemoModel: z.tuple([z.string().refine((name) => findDemoModel(name) !== undefined, { error: `a demo model name: ${DEMO_MODEL_NAMES.join(', ')}` })]),
  modelLibrary: z.tuple([]),
  inspectModel: z.tuple([modelSource, precision]),
  getModel: z.tuple([z.object({ source: modelSource, precision, acceptedLicense: z.string().max(200) })]),
  cancelModelDownload: z.tuple([]),
  removeModel: z.tuple([modelId, precision]),
  discardModelDownload: z.tuple([modelId, precision]),
} satisfies Record<InvokedMethod, z.ZodType>;

/** The FolioApi methods that are calls (not subscriptions, not resolved in the page itself). */
export type InvokedMethod = Exclude<keyof FolioApi, 'onWorkspaceEvent' | 'onMenuCommand' | 'pathForFile'>;

export function isInvokedMethod(name: string): name is InvokedMethod {
  return Object.hasOwn(ARGUMENTS, name);
}

/** The arguments, checked; throws an error that names the call and what was wrong. */
export function checkedArguments(method: InvokedMethod, args: unknown): unknown[] {
  const parsed = ARGUMENTS[method].safeParse(args);
  if (parsed.success) return parsed.data as unknown[];
  throw new Error(`window.folio.${method} was called with arguments it does not take: ${z.prettifyError(parsed.error)}`);
}
