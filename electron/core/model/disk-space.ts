/**
 * Free space checked before a download starts: the download into the Hugging Face cache and the
 * package into the app's models folder, added up where both are on one disk, so a 7 GB fetch does
 * not fail at 95% or leave no room for the conversion.
 */

import { stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { HubError } from '../hub/hub-error.js';
import { formatBytes, type ModelPrecision } from '../../../shared/model-library.js';

export interface SpaceNeed {
  /** The folder written to (it need not exist yet). */
  dir: string;
  bytes: number;
  /** What the bytes are for, in a few words: `the download`, `the package`. */
  what: string;
}

/** Left free beyond the estimate: the estimate's error, the file system's own needs. */
export const SPACE_MARGIN = 256 * 1024 * 1024;

/** How free space is measured; tests pass their own. */
export type FreeSpace = (dir: string) => Promise<{ device: number; freeBytes: number }>;

export const freeSpace: FreeSpace = async (dir) => {
  const existing = await nearestExisting(dir);
  const [info, fs] = await Promise.all([stat(existing), statfs(existing)]);
  return { device: info.dev, freeBytes: fs.bavail * fs.bsize };
};

/** Throws a HubError naming each disk short of space, what is needed there and what is free. */
export async function checkFreeSpace(needs: readonly SpaceNeed[], measure: FreeSpace = freeSpace): Promise<void> {
  const disks = new Map<number, { free: number; needs: SpaceNeed[] }>();
  for (const need of needs) {
    if (need.bytes <= 0) continue;
    const { device, freeBytes } = await measure(need.dir);
    const disk = disks.get(device) ?? { free: freeBytes, needs: [] };
    disk.needs.push(need);
    disks.set(device, disk);
  }
  for (const disk of disks.values()) {
    const needed = disk.needs.reduce((sum, need) => sum + need.bytes, 0);
    if (needed + SPACE_MARGIN <= disk.free) continue;
    const parts = disk.needs.map((need) => `${need.what} ${formatBytes(need.bytes)} in ${need.dir}`).join(' and ');
    throw new HubError(
      'disk-space',
      `not enough free space: ${parts} need ${formatBytes(needed + SPACE_MARGIN)} with a margin, and the disk has ${formatBytes(disk.free)} free; ` +
        'free some space, or put the Hugging Face cache (HF_HUB_CACHE) or Folio\'s data folder (FOLIO_USER_DATA_DIR) on another disk',
    );
  }
}

/**
 * A package's size from its checkpoint's: the weights are bf16 (2 bytes a parameter) unless
 * config.json says float32. Measured (docs/benchmarks.md): int4 0.37 of a bf16 checkpoint at full
 * size and 0.51 at 2 layers (the embedding's share grows); fp16 keeps 2 bytes, fp32 4; each is
 * rounded up here, as a space check should be.
 */
export function estimatePackageBytes(checkpointBytes: number, precision: ModelPrecision, bytesPerWeight = 2): number {
  const parameters = checkpointBytes / bytesPerWeight;
  const perParameter: Record<ModelPrecision, number> = { int4: 1.1, fp16: 2.1, fp32: 4.2 };
  return Math.ceil(parameters * perParameter[precision]);
}

async function nearestExisting(dir: string): Promise<string> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    try {
      await stat(current);
      return current;
    } catch {
      if (path.dirname(current) === current) return current;
    }
  }
}
