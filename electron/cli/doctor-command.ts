/**
 * `folio doctor`: the devices ONNX Runtime answers on here (and why any is missing), and what
 * `--device auto` (and `--pages-in-flight auto`) measured on them, package by package, from the
 * app-data folder.
 */

import path from 'node:path';
import type { Writable } from 'node:stream';
import { forkHost } from '../core/engine-client/fork-host.js';
import { HostClient, type DeviceProbe } from '../core/engine-client/host-client.js';
import { CALIBRATION_FILE, PACKED_PASS_FILE, pageSummary, readCalibrations, readPackedPassCalibrations } from '../core/model/device-calibrations.js';
import { appDataFolder } from './app-data-folder.js';

/** The engine host answers which devices ONNX Runtime has: the CLI process never loads ONNX Runtime itself. */
export async function runDoctor(stdout: Writable, dataDir = appDataFolder()): Promise<number> {
  const probe = await probeInHost(dataDir);
  const { available, missing } = probe;
  const kept = [...(await readCalibrations(dataDir)).values()];
  const packed = [...(await readPackedPassCalibrations(dataDir)).values()];
  const lines = [
    `ONNX Runtime: ${probe.runtimeVersion}`,
    `devices: ${available.join(', ')}`,
    ...missing.map((problem) => `not available: ${problem}`),
    `--device ${probe.reason}`,
    kept.length ? `measured (${path.join(dataDir, CALIBRATION_FILE)}):` : `nothing measured yet (${path.join(dataDir, CALIBRATION_FILE)})`,
    ...kept.map((entry) => {
      const drafting = entry.stepMs.flatMap((ms, k) => (k > 0 && ms !== null ? [`, drafting ${k}: ${ms} ms`] : [])).join('');
      const page = entry.page ? `; ${pageSummary(entry)}` : '';
      return `  ${entry.package} on ${entry.device}: ${entry.stepMs[0] ?? '?'} ms a step${drafting}${page} (${entry.measuredAt.slice(0, 10)})`;
    }),
    ...(packed.length ? [`--pages-in-flight auto measured (${path.join(dataDir, PACKED_PASS_FILE)}):`] : []),
    ...packed.map((entry) => `  ${entry.package} on ${entry.device}: a decoder pass ${entry.passMs.map((cost) => `${cost.ms} ms with ${cost.pages} page${cost.pages === 1 ? '' : 's'}`).join(', ')} (${entry.measuredAt.slice(0, 10)})`),
  ];
  stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

async function probeInHost(calibrationDir: string): Promise<DeviceProbe> {
  const client = new HostClient({ spawnHost: () => forkHost() });
  try {
    return await client.probeDevice({ calibrationDir });
  } finally {
    client.dispose();
  }
}
