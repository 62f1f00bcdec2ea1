/**
 * `node dist/tools/bench/bench-device-auto.js --model DIR [--rounds N] [--check]`: what `--device
 * auto`'s first open costs and what it weighs. Each round opens the package with auto, every device
 * that answers measured and nothing kept, and prints each device's typical page by part (vision,
 * prefill, decoding), what measuring took and which device won. `--check` then sets the CPU's
 * estimates beside the parts run whole: the vision encoder on the typical page's views (the global
 * view and every tile) and the prefill of its whole prompt. WebGPU on Linux needs `XDG_RUNTIME_DIR`.
 * A benchmark prints; it asserts nothing.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration } from '../../electron/core/model/device-calibrations.js';
import { openByMeasurement } from '../../electron/engine/vlm/device-calibration.js';
import { prefill } from '../../electron/engine/vlm/decoding.js';
import { openModelPackage } from '../../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../../electron/engine/vlm/model-runner.js';
import { measureDevice, typicalPage } from '../../electron/engine/vlm/page-costs.js';
import { loadTokenizer } from '../../electron/engine/vlm/prompt.js';

async function firstAutoOpen(dir: string): Promise<void> {
  const calibrationDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-calibration-'));
  const started = performance.now();
  try {
    const pkg = await openByMeasurement(dir, {
      calibrationDir,
      open: (folder, device, verified, stepGraphsOnly) => openModelPackage(folder, { device, skipChecksums: verified, stepGraphsOnly }),
    });
    console.log(`first open with auto: ${formatDuration(performance.now() - started)}; ${pkg.provider.reason}`);
    await pkg.release();
  } finally {
    await rm(calibrationDir, { recursive: true, force: true });
  }
}

/** The CPU's estimate of a page's vision and prefill beside the same parts run whole. */
async function checkOnCpu(dir: string): Promise<void> {
  const pkg = await openModelPackage(dir, { device: { kind: 'cpu' }, skipChecksums: true, stepGraphsOnly: true });
  try {
    const { page } = await measureDevice(pkg);
    const runner = new ModelRunner(pkg);
    const typical = typicalPage(pkg.manifest, loadTokenizer(pkg.tokenizerJson));
    const { mode, grid } = typical;
    const tiles = grid[0] * grid[1] > 1 ? grid[0] * grid[1] : 0;
    const fill = (length: number) => new Float32Array(length).map((_, i) => ((i * 37) % 255) / 127.5 - 1);
    let started = performance.now();
    await runner.vision({
      global: fill(3 * mode.base_size * mode.base_size),
      baseSize: mode.base_size,
      tiles: tiles ? fill(tiles * 3 * mode.image_size * mode.image_size) : null,
      tileSize: mode.image_size,
      grid,
    });
    const visionMs = performance.now() - started;
    const vocab = pkg.manifest.architecture.language_config.vocab_size;
    const embeds = await runner.embed(Array.from({ length: typical.promptRows }, (_, i) => (i * 7919 + 13) % vocab));
    started = performance.now();
    const { decoderCache } = await prefill(runner, embeds, typical.promptRows + 1);
    const prefillMs = performance.now() - started;
    decoderCache.release();
    console.log(`cpu, estimated: vision ${formatDuration(page.visionMs)}, prefill of ${page.promptRows} rows ${formatDuration(page.prefillMs)} (measuring took ${formatDuration(page.totalMs)})`);
    console.log(`cpu, run whole: vision of the view and ${tiles} tiles ${formatDuration(visionMs)}, prefill of ${typical.promptRows} rows ${formatDuration(prefillMs)}`);
  } finally {
    await pkg.release();
  }
}

const { values } = parseArgs({ options: { model: { type: 'string' }, rounds: { type: 'string', default: '1' }, check: { type: 'boolean', default: false } } });
if (!values.model) throw new Error('usage: node dist/tools/bench/bench-device-auto.js --model DIR [--rounds N] [--check]');
const dir = path.resolve(values.model);
for (let round = 0; round < Number(values.rounds); round++) {
  await firstAutoOpen(dir);
  if (values.check) await checkOnCpu(dir);
}
