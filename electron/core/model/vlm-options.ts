/** The VLM settings sent to the engine host, with the defaults that depend on the model package. */

import path from 'node:path';
import type { PagesInFlight } from '../../../shared/conversion-defaults.js';
import type { DemoModel } from '../../../shared/demo-models.js';
import type { VlmOptions } from '../../../shared/protocol.js';
import { readBoundedFile } from '../bounded-file.js';

/** The VLM settings as the user gave them (the CLI's flags, the app's settings); an unset `specK` is decided by the package. */
export interface VlmRequest {
  modelDir: string;
  specK?: number | 'auto';
  mode?: string;
  maxNewTokens: number;
  /** --device or the setting as given (checked): `auto`, `cpu`, `webgpu`, `cuda`, `cuda:N`; undefined: auto. */
  device?: string;
  /** --pages-in-flight or the setting: pages decoding together, or `auto` (measured); undefined: 1. */
  pagesInFlight?: PagesInFlight;
  /** Set when --model named a demo model (shared/demo-models.ts) rather than a folder; its label is said on stderr. */
  demo?: DemoModel;
}

/**
 * With an MTP head the engine measures and picks K; without one only plain greedy decoding exists.
 * `calibrationDir`: the app-data folder, where `auto` keeps what it measured of the devices.
 */
export async function vlmOptions(request: VlmRequest, calibrationDir?: string): Promise<VlmOptions> {
  const specK = request.specK ?? ((await hasMtpHead(request.modelDir)) ? 'auto' : 0);
  return {
    modelDir: request.modelDir, specK, mode: request.mode, maxNewTokens: request.maxNewTokens,
    ...(request.device && { device: request.device }), ...(calibrationDir && { calibrationDir }),
    ...(request.pagesInFlight !== undefined && request.pagesInFlight !== 1 && { pagesInFlight: request.pagesInFlight }),
  };
}

async function hasMtpHead(dir: string): Promise<boolean> {
  try {
    // loaded here: the manifest's schema (zod) is for conversions that name a model
    const { manifestSchema } = await import('./manifest.js');
    const parsed = manifestSchema.safeParse(JSON.parse((await readBoundedFile(path.join(dir, 'manifest.json'), 16 * 1024 * 1024)).toString('utf8')));
    return parsed.success && 'mtp' in parsed.data.graphs;
  } catch {
    // an unreadable package is reported, with its remedy, by the engine host's loader on the first page
    return false;
  }
}
