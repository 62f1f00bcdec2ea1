import { describe, expect, it } from 'vitest';
import { HubError } from '../hub/hub-error.js';
import { checkFreeSpace, estimatePackageBytes, type FreeSpace } from './disk-space.js';

const GB = 1e9;

/** Two disks: the cache's (device 1) and the app data's (device 2), by folder prefix. */
const disks = (cacheFree: number, dataFree: number, sameDisk = false): FreeSpace => async (dir) => {
  const onCache = dir.startsWith('/cache');
  return { device: sameDisk || onCache ? 1 : 2, freeBytes: onCache || sameDisk ? cacheFree : dataFree };
};

describe('the free-space check before a download', () => {
  const needs = [
    { dir: '/cache/models--jinaai--jina-ocr-v1', bytes: 6.7 * GB, what: 'the download' },
    { dir: '/data/models', bytes: 3.7 * GB, what: 'the package' },
  ];

  it('passes when each disk has room for what goes there', async () => {
    await expect(checkFreeSpace(needs, disks(7 * GB, 4 * GB))).resolves.toBeUndefined();
  });

  it('adds the download and the package up where both are on one disk, and names what is needed and free', async () => {
    const error = await checkFreeSpace(needs, disks(9 * GB, 0, true)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HubError);
    expect((error as HubError).message).toBe(
      'not enough free space: the download 6.70 GB in /cache/models--jinaai--jina-ocr-v1 and the package 3.70 GB in /data/models need 10.7 GB with a margin, ' +
        "and the disk has 9.00 GB free; free some space, or put the Hugging Face cache (HF_HUB_CACHE) or Folio's data folder (FOLIO_USER_DATA_DIR) on another disk",
    );
  });

  it('names only the disk that is short', async () => {
    await expect(checkFreeSpace(needs, disks(7 * GB, 1 * GB))).rejects.toThrow(/^not enough free space: the package 3\.70 GB in \/data\/models need/);
  });

  it('estimates a package from its checkpoint: int4 about half a bf16 checkpoint, fp16 about as large, fp32 twice', () => {
    expect(estimatePackageBytes(6.67 * GB, 'int4') / GB).toBeCloseTo(3.67, 2);
    expect(estimatePackageBytes(6.67 * GB, 'fp16') / GB).toBeCloseTo(7.0, 1);
    expect(estimatePackageBytes(6.67 * GB, 'fp32') / GB).toBeCloseTo(14.0, 1);
    // a float32 checkpoint holds half the weights for its size
    expect(estimatePackageBytes(13.34 * GB, 'int4', 4) / GB).toBeCloseTo(3.67, 2);
  });
});
