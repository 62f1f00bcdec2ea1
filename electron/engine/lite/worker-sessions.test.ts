import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ppOcrAssetsDir, RECOGNISER_FILE } from './ppocr-models.js';
import { sessionRunner, WorkerSessions, type OnnxRunner } from './worker-sessions.js';

const DIMS = [1, 3, 48, 160];
const line = (seed: number) => Float32Array.from({ length: 3 * 48 * 160 }, (_, i) => Math.sin(i * seed) * 0.5);
const signal = new AbortController().signal;

describe('WorkerSessions', () => {
  let model: Uint8Array;
  let workers: WorkerSessions;
  let here: OnnxRunner;

  beforeAll(async () => {
    model = new Uint8Array(await readFile(path.join(ppOcrAssetsDir(), RECOGNISER_FILE)));
    workers = await WorkerSessions.start(model, 2);
    here = sessionRunner(await ort.InferenceSession.create(model));
  }, 60_000);
  afterAll(() => workers.close());

  it('gives each run its own output, as a session in this thread does', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map((seed) => workers.run(line(seed), DIMS, signal)));
    for (const [seed, output] of [[1, a], [2, b], [3, c]] as const) {
      const expected = await here.run(line(seed), DIMS, signal);
      expect(output!.dims).toEqual(expected.dims);
      const largest = output!.data.reduce((m, v, i) => Math.max(m, Math.abs(v - expected.data[i]!)), 0);
      expect(largest).toBeLessThan(1e-4);
    }
  });

  it('drops runs still queued when cancelled and finishes those under way', async () => {
    const controller = new AbortController();
    const runs = [1, 2, 3, 4].map((seed) => workers.run(line(seed), DIMS, controller.signal));
    controller.abort(new DOMException('stopped', 'AbortError'));
    const settled = await Promise.allSettled(runs);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(await workers.run(line(5), DIMS, signal)).toHaveProperty('dims');
  });

  it('refuses a model the workers cannot load, and runs after closing', async () => {
    await expect(WorkerSessions.start(new Uint8Array([1, 2, 3]), 1)).rejects.toThrow();
    const closing = await WorkerSessions.start(model, 1);
    await closing.close();
    await expect(closing.run(line(1), DIMS, signal)).rejects.toThrow(/closed/);
  }, 60_000);
});
