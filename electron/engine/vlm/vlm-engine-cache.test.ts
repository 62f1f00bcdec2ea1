import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { VlmOptions } from '../../../shared/protocol.js';
import { FailureError } from '../../core/failure-error.js';
import { openModelPackage, type ModelPackage } from './model-package.js';
import { VlmEngineCache } from './vlm-engine-cache.js';

const nano = path.resolve(import.meta.dirname, '../../../tools/model/fixtures/nano');

/** Opens the nano package for real, counting opens and telling when each one's sessions are released. */
function countingOpener() {
  const opened: ModelPackage[] = [];
  const released: ModelPackage[] = [];
  const waiting: (() => void)[] = [];
  const open = async (dir: string, device: string): Promise<ModelPackage> => {
    const pkg = await openModelPackage(dir, { device: { kind: 'cpu' }, skipChecksums: true });
    const counted: ModelPackage = {
      ...pkg,
      release: async () => {
        await pkg.release();
        released.push(counted);
        waiting.splice(0).forEach((resolve) => resolve());
      },
    };
    opened.push(counted);
    return counted;
  };
  const nextRelease = () => new Promise<void>((resolve) => waiting.push(resolve));
  return { open, opened, released, nextRelease };
}

const options = (device = 'cpu'): VlmOptions => ({ modelDir: nano, specK: 0, maxNewTokens: 8, device });

/** A session released by ONNX Runtime refuses to run. */
async function stillRuns(pkg: ModelPackage): Promise<boolean> {
  const session = pkg.sessions.get('embedding')!;
  const input = new ort.Tensor('int64', BigInt64Array.from([1n]), [1, 1]);
  try {
    await session.run({ [session.inputNames[0]!]: input });
    return true;
  } catch {
    return false;
  }
}

describe('VlmEngineCache', () => {
  it('tells a page waiting for the package what the open does and the bytes it loads, and nothing once the package is open', async () => {
    const { open } = countingOpener();
    const cache = new VlmEngineCache(async (dir, device, calibrationDir, progress) => {
      progress('opening the model on cpu');
      return open(dir, device);
    }, 0);
    const heard: string[] = [];
    const document = {};
    await cache.engine(options(), document, (detail, bytes) => heard.push(`${detail}: ${bytes > 0 ? 'some' : 'no'} bytes`));
    expect(heard).toEqual(['opening the model: some bytes', 'opening the model on cpu: some bytes']);
    await cache.engine(options(), document, (detail) => heard.push(`again: ${detail}`));
    expect(heard).toHaveLength(2);
    cache.letGo(document);
  });

  it('fails a package asked for on a device that does not start with the device named and choosing another as the remedy', async () => {
    // no machine has a 100th CUDA device
    const error: unknown = await new VlmEngineCache(undefined, 0).engine(options('cuda:99')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as FailureError).failure).toMatchObject({ code: 'model-package', remedy: 'device', message: expect.stringMatching(/^device cuda:99: /) });
  });

  it('keeps a package open while any document uses it and releases its sessions once none does', async () => {
    const opener = countingOpener();
    const cache = new VlmEngineCache(opener.open, 0);
    const first = {};
    const second = {};
    const engine = await cache.engine(options(), first);
    expect(await cache.engine(options(), second)).toBe(engine);
    expect(opener.opened).toHaveLength(1);

    cache.letGo(first);
    expect(opener.released).toEqual([]);
    expect(await stillRuns(opener.opened[0]!)).toBe(true);

    const released = opener.nextRelease();
    cache.letGo(second);
    await released;
    expect(opener.released).toEqual([opener.opened[0]]);
    expect(await stillRuns(opener.opened[0]!)).toBe(false);

    // the next document opens it afresh
    await cache.engine(options(), {});
    expect(opener.opened).toHaveLength(2);
  });

  it('keeps an unused package through the grace period when a document takes it up again', async () => {
    const opener = countingOpener();
    const cache = new VlmEngineCache(opener.open, 60_000);
    const first = {};
    await cache.engine(options(), first);
    cache.letGo(first);
    const next = {};
    await cache.engine(options(), next);
    expect(opener.opened).toHaveLength(1);
    expect(await stillRuns(opener.opened[0]!)).toBe(true);
    cache.letGo(next);
  });

  it('releases an unused package at once when another one is opened', async () => {
    const opener = countingOpener();
    const cache = new VlmEngineCache(opener.open, 60_000);
    const first = {};
    await cache.engine(options('cpu'), first);
    cache.letGo(first);
    const released = opener.nextRelease();
    await cache.engine(options('auto'), {});
    await released;
    expect(opener.released).toEqual([opener.opened[0]]);
    expect(opener.opened).toHaveLength(2);
  });
});
