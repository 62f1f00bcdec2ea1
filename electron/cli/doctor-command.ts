/**
 * `folio doctor`: the devices ONNX Runtime answers on here (and why any is missing), and what
 * `--device auto` measured on them, package by package, from the app-data folder.
 */

import path from 'node:path';
import type { Writable } from 'node:stream';
import { appDataFolder } from './app-data-folder.js';

export async function runDoctor(stdout: Writable, dataDir = appDataFolder()): Promise<number> {
  // loaded on demand: ONNX Runtime's native library is slow to load and other commands may not need it
  const { availableDevices, runtimeVersion } = await import('../engine/onnx/execution-provider.js');
  const { CALIBRATION_FILE, readCalibrations } = await import('../engine/vlm/device-calibration.js');
  const { devices, missing } = await availableDevices();
  const kept = [...(await readCalibrations(dataDir)).values()];
  const lines = [
    `ONNX Runtime: ${runtimeVersion()}`,
    `devices: ${devices.map((device) => device.device).join(', ')}`,
    ...missing.map((problem) => `not available: ${problem}`),
    devices.length > 1
      ? '--device auto: the first time a package opens, a few decoding steps on each device; the fastest is kept'
      : `--device auto: ${devices[0]?.device ?? 'cpu'}, the only device here`,
    kept.length ? `measured (${path.join(dataDir, CALIBRATION_FILE)}):` : `nothing measured yet (${path.join(dataDir, CALIBRATION_FILE)})`,
    ...kept.map((entry) => {
      const drafting = entry.stepMs.flatMap((ms, k) => (k > 0 && ms !== null ? [`, drafting ${k}: ${ms} ms`] : [])).join('');
      return `  ${entry.package} on ${entry.device}: ${entry.stepMs[0] ?? '?'} ms a step${drafting} (${entry.measuredAt.slice(0, 10)})`;
    }),
  ];
  stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
