/**
 * `node dist/tools/bench/bench-device-auto.js --model DIR [--rounds N]`: what `--device auto`'s first
 * open costs. Per device that answers, the session creation of the step graphs (what a device is
 * measured with) and of the vision graphs (opened on the winner only); then the whole first open
 * (every device measured, nothing kept) with the step graphs per candidate, as auto does, and with
 * the whole package per candidate, as it did before. WebGPU on Linux needs `XDG_RUNTIME_DIR`.
 * A benchmark prints; it asserts nothing.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { availableDevices } from '../../electron/engine/onnx/execution-provider.js';
import { openByMeasurement } from '../../electron/engine/vlm/device-calibration.js';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

async function graphOpens(dir: string): Promise<void> {
  const { devices } = await availableDevices();
  for (const { request, device } of devices) {
    let started = performance.now();
    const pkg = await openModelPackage(dir, { device: request, skipChecksums: true, stepGraphsOnly: true });
    const steps = performance.now() - started;
    started = performance.now();
    await pkg.openVision();
    const vision = performance.now() - started;
    const kept = [...pkg.sessions.keys()].filter((graph) => graph.startsWith('vision_'));
    console.log(`${device}: step graphs ${seconds(steps)}, vision graphs ${seconds(vision)} (kept: ${kept.join(', ') || 'none'}; per pass: ${[...pkg.perPass].join(', ') || 'none'})`);
    await pkg.release();
  }
}

async function firstAutoOpen(dir: string, stepGraphsPerCandidate: boolean): Promise<void> {
  const calibrationDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-calibration-'));
  const opens: string[] = [];
  const started = performance.now();
  try {
    const pkg = await openByMeasurement(dir, {
      calibrationDir,
      open: async (folder, device, verified, stepGraphsOnly) => {
        const opening = performance.now();
        const stepsOnly = stepGraphsPerCandidate && stepGraphsOnly;
        const opened = await openModelPackage(folder, { device, skipChecksums: verified, stepGraphsOnly: stepsOnly });
        opens.push(`${device.kind} ${stepsOnly ? 'step graphs' : 'whole package'} ${seconds(performance.now() - opening)}`);
        return opened;
      },
    });
    const total = performance.now() - started;
    console.log(`${stepGraphsPerCandidate ? 'step graphs per candidate' : 'whole package per candidate'}: ${seconds(total)} (opens: ${opens.join(', ')}); ${pkg.provider.reason}`);
    await pkg.release();
  } finally {
    await rm(calibrationDir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { model: { type: 'string' }, rounds: { type: 'string', default: '1' } } });
if (!values.model) throw new Error('usage: node dist/tools/bench/bench-device-auto.js --model DIR [--rounds N]');
const dir = path.resolve(values.model);
for (let round = 0; round < Number(values.rounds); round++) {
  await graphOpens(dir);
  await firstAutoOpen(dir, true);
  await firstAutoOpen(dir, false);
}
