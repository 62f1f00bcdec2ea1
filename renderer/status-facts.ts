/**
 * The status bar's words: what the settings will use next, and what read the page in view, each
 * from its own source so that neither borrows from the other (a remote page never shows the vision
 * model's package, a text-layer page never a GPU).
 */

import type { AppInfo } from '../shared/app-api.js';
import type { PageStats } from '../shared/page.js';
import type { Settings } from '../shared/settings.js';
import { engineLabel } from './settings/engine-label.js';

export interface StatusFact {
  name: 'Engine' | 'Model' | 'Device' | 'Server' | 'Time' | 'Speed';
  /** Short: what fits in the bar. */
  value: string;
  /** The full story (why this device, the server's whole address), on hover or a click. */
  detail?: string;
}

export type StatusFacts = StatusFact[];

/** What the next conversion uses: the engine chosen, and the model and device that engine would use. */
export function settingsInUse(settings: Settings, modelName: string, appInfo: AppInfo | null): StatusFacts {
  const facts: StatusFacts = [{ name: 'Engine', value: engineLabel(settings.engine) }];
  const onnxDevice: StatusFact = appInfo ? { name: 'Device', value: appInfo.device, detail: appInfo.deviceReason || undefined } : { name: 'Device', value: 'starting…' };
  switch (settings.engine) {
    case 'vlm':
      facts.push({ name: 'Model', value: settings.modelDir ? modelName : 'not set' }, onnxDevice);
      break;
    case 'remote':
      facts.push({ name: 'Model', value: settings.remoteModel ?? 'not set' }, serverFact(settings.remoteServer));
      break;
    case 'auto':
      // automatic reads text layers itself, and scans with the vision model where one is set
      if (settings.modelDir) facts.push({ name: 'Model', value: modelName, detail: 'Used for pages without a text layer' }, onnxDevice);
      break;
    case 'text':
    case 'lite':
      facts.push({ name: 'Device', value: 'cpu' });
      break;
  }
  return facts;
}

/** What read this page, from its own record. */
export function pageReadBy(stats: PageStats): StatusFacts {
  const facts: StatusFacts = [{ name: 'Engine', value: engineLabel(stats.engine) }];
  if (stats.model) facts.push({ name: 'Model', value: stats.model });
  if (stats.engine === 'remote') {
    // the remote engine records its device as "<model> at <server>"
    const server = / at (\S+)$/.exec(stats.device)?.[1];
    facts.push({ ...serverFact(server ?? null), ...(stats.reason ? { detail: `${server ?? stats.device}: ${stats.reason}` } : {}) });
  } else {
    facts.push({ name: 'Device', value: stats.device, ...(stats.reason ? { detail: stats.reason } : {}) });
  }
  facts.push({ name: 'Time', value: seconds(stats.timeMs) });
  // tokens/s is the decoder's own measure; a server's time includes its queue and the network, so it gets a count
  if (stats.decode) facts.push({ name: 'Speed', value: `${stats.decode.tokensPerSecond.toFixed(1)} tokens/s`, detail: `${stats.decode.newTokens} tokens, ${stats.decode.tokensPerStep.toFixed(2)} tokens per decoder step${decodedAlongside(stats.decode)}` });
  else if (stats.engine === 'remote' && stats.tokens !== undefined) facts.push({ name: 'Speed', value: `${stats.tokens} tokens` });
  return facts;
}

/** `--pages-in-flight`: the pages the page shared its decoder passes with, and the rows a pass took. */
function decodedAlongside(decode: NonNullable<PageStats['decode']>): string {
  const { most, mean } = decode.pagesTogether;
  if (most <= 1) return '';
  return `; decoded with other pages: ${mean.toFixed(1)} pages a pass on average, at most ${most}, ${decode.rowsPerPass.toFixed(1)} rows a pass`;
}

function serverFact(address: string | null): StatusFact {
  if (!address) return { name: 'Server', value: 'not set' };
  const host = URL.canParse(address) ? new URL(address).host : address;
  return { name: 'Server', value: host, detail: address };
}

function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
