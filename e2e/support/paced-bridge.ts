/** Browser mode whose engine host is paced like a vision model (paced-host.mjs), so work lasts long enough to watch, queue behind or cancel. */

import path from 'node:path';
import { startBridge, type Bridge, type BridgeOptions } from '../../electron/web/bridge-server.js';

/** `pacing`: paced-host.mjs's variables (FOLIO_PACE_MS, FOLIO_STREAM_CHUNK, ...). */
export function startPacedBridge(settings: BridgeOptions['settings'], pacing: Record<string, string>): Promise<Bridge> {
  return startBridge({ settings, hostModule: path.join(import.meta.dirname, 'paced-host.mjs'), hostEnv: pacing });
}
