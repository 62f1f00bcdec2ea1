// The VLM runtime on the tiny package against the PyTorch reference's parity fixtures: views, visual
// layout, prompt ids, first logits and greedy tokens, all computed by Folio's own pipeline.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefill } from '../electron/engine/vlm/decoding.js';
import { decodeGreedy } from '../electron/engine/vlm/greedy.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../electron/engine/vlm/model-runner.js';
import { decodeImage } from '../electron/engine/raster/page-raster.js';
import { pageInput, resolutionMode } from '../electron/engine/vlm/page-input.js';
import { loadTokenizer } from '../electron/engine/vlm/prompt.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const parityDir = path.join(packageDir, 'parity');
// float32 graphs on identical inputs (the views match bit for bit): differences come only from kernel order
const TOLERANCE = 1e-4;

interface ParityCase { name: string; image: string; prompt_ids: number[]; greedy_tokens: number[]; tensors: Record<string, { file: string }> }
const parity = JSON.parse(readFileSync(path.join(parityDir, 'parity.json'), 'utf8')) as {
  eos: number; max_new_tokens: number; no_repeat_ngram: { size: number; window: number; exempt: number[] }; cases: ParityCase[];
};

function fixture(page: ParityCase, key: string): Float32Array {
  const spec = page.tensors[key];
  if (!spec) throw new Error(`parity fixture ${page.name} has no ${key}; rebuild it with "npm run model:tiny"`);
  const bytes = readFileSync(path.join(parityDir, spec.file));
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function maxDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  return actual.reduce((worst, value, i) => Math.max(worst, Math.abs(value - (expected[i] ?? Number.NaN))), 0);
}

let pkg: ModelPackage;
let runner: ModelRunner;
beforeAll(async () => {
  pkg = await openModelPackage(packageDir, { threads: 1 });
  runner = new ModelRunner(pkg);
});
afterAll(async () => pkg.release());

describe.each(parity.cases)('Folio pipeline on the $name page', (page) => {
  async function input() {
    const image = await decodeImage(readFileSync(path.join(parityDir, page.image)));
    return pageInput(runner, pkg.manifest, loadTokenizer(pkg.tokenizerJson), image, resolutionMode(pkg.manifest, 'gundam'));
  }

  it('lays out the visual tokens and the prompt ids as the reference does', async () => {
    const { ids, embeds, visualTokens } = await input();
    expect(ids).toEqual(page.prompt_ids);
    const first = ids.indexOf(pkg.manifest.tokens.special['<image>'] ?? -1);
    const visual = embeds.subarray(first * runner.hidden, (first + visualTokens) * runner.hidden);
    expect(maxDifference(visual, fixture(page, 'visual_sequence'))).toBeLessThan(TOLERANCE);
  });

  it('prefills to the reference first logits and decodes its greedy tokens', async () => {
    const { embeds } = await input();
    const start = await prefill(runner, embeds, 8);
    // the tiny package is fp32, so its logits arrive as floats
    expect(start.out.logits).toBeInstanceOf(Float32Array);
    expect(maxDifference(start.out.logits as Float32Array, fixture(page, 'first_logits'))).toBeLessThan(TOLERANCE);
    expect(maxDifference(start.out.hidden as Float32Array, fixture(page, 'prompt_hidden'))).toBeLessThan(TOLERANCE);
    const result = await decodeGreedy(runner, start, { eos: parity.eos, maxNewTokens: parity.max_new_tokens, rule: parity.no_repeat_ngram });
    expect(result.tokens).toEqual(page.greedy_tokens);
    // capacity 8 forced the cache to grow several times on the way
    expect(start.decoderCache.length).toBe(page.prompt_ids.length + result.tokens.length - 1);
  });
});

describe('embedding rows', () => {
  it('runs the embedding graph once per token and returns rows the caller may overwrite', async () => {
    const width = runner.hidden;
    const first = await runner.embed([5, 6, 7]);
    const rows = [5, 6, 7].map((_, i) => Array.from(first.subarray(i * width, (i + 1) * width)));
    first.fill(0);
    runner.runMs = 0;
    const again = await runner.embed([7, 5, 6, 5]);
    expect(runner.runMs).toBe(0);
    expect([0, 1, 2, 3].map((i) => Array.from(again.subarray(i * width, (i + 1) * width)))).toEqual([rows[2], rows[0], rows[1], rows[0]]);
    await runner.embed([5, 8]);
    expect(runner.runMs).toBeGreaterThan(0);
  });
});
