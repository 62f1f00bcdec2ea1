// The fp16 tiny package (`npm run model:tiny -- --dtype fp16`), the precision `folio export-model
// --precision fp16` gives a real checkpoint: it loads, its vision features and first logits match the reference run on the
// package's own fp16 numbers, its greedy tokens match the reference wherever the reference's choice is
// well-defined at fp16 precision, and speculative decoding commits exactly greedy's tokens.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefill, type DecodeLimits } from '../electron/engine/vlm/decoding.js';
import { decodeGreedy } from '../electron/engine/vlm/greedy.js';
import { floatsFrom } from '../electron/engine/vlm/half-float.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../electron/engine/vlm/model-runner.js';
import type { CapacityKvCache } from '../electron/engine/vlm/capacity-kv-cache.js';
import type { KvCache } from '../electron/engine/vlm/kv-cache.js';
import { decodeImage } from '../electron/engine/raster/page-raster.js';
import { pageInput, resolutionMode, type PageInput } from '../electron/engine/vlm/page-input.js';
import { loadTokenizer } from '../electron/engine/vlm/prompt.js';
import { decodeSpeculative, MtpDrafter, type Drafter } from '../electron/engine/vlm/speculative.js';
import { pngPage } from './page-images.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny-fp16');
const parityDir = path.join(packageDir, 'parity');

// The reference computes with the package's fp16 weights and rounds pixels, vision outputs and
// embeddings to fp16 where the graphs do, so what remains is fp32 kernel order: a vision output a
// hair from a rounding boundary lands one fp16 step away, and near zero, where steps are tiny, the
// kernel-order difference itself shows (measured: at most 9e-6 beyond one step).
const BEYOND_ONE_HALF_STEP = 1e-4;
// A visual input one fp16 step off moves its own row's prompt hidden state by up to ~1e-3 (measured
// 1.0e-3 absolute, on visual rows); text rows and the logits barely feel it.
const PROMPT_HIDDEN_TOLERANCE = 2e-3;
// Logits are fp32 outputs of fp32 arithmetic on identical fp16 inputs (measured 3.1e-5). The fp32
// reference, whose inputs are not rounded, is off by 4.3e-4 to 4.7e-4: the tolerance tells them apart.
const LOGIT_TOLERANCE = 1e-4;
// Later steps also read fp16 KV rows, which the reference (full fp32 forwards) does not round. A
// step's choice counts as well-defined when its top-1 minus top-2 margin is 50x the first-step error
// bound; on both parity pages every step qualifies (smallest margins 0.016 and 0.009).
const WELL_DEFINED_MARGIN = 5e-3;

interface ParityCase {
  name: string; image: string; prompt_ids: number[]; greedy_tokens: number[]; greedy_margins: number[];
  tensors: Record<string, { file: string }>;
}
const parity = JSON.parse(readFileSync(path.join(parityDir, 'parity.json'), 'utf8')) as {
  eos: number; max_new_tokens: number; no_repeat_ngram: { size: number; window: number; exempt: number[] }; cases: ParityCase[];
};

function fixture(page: ParityCase, key: string): Float32Array {
  const spec = page.tensors[key];
  if (!spec) throw new Error(`fp16 parity fixture ${page.name} has no ${key}; rebuild it with "npm run model:tiny -- --dtype fp16"`);
  const bytes = readFileSync(path.join(parityDir, spec.file));
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function maxDifference(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  return actual.reduce((worst, value, i) => Math.max(worst, Math.abs(value - (expected[i] ?? Number.NaN))), 0);
}

/** The spacing of fp16 values around `value` (normal range; subnormals share the smallest). */
function halfStep(value: number): number {
  return 2 ** (Math.max(-14, Math.floor(Math.log2(Math.abs(value) || 2 ** -14))) - 10);
}

/** The largest difference beyond one fp16 step of the expected value. */
function maxBeyondHalfStep(actual: Float32Array, expected: Float32Array): number {
  expect(actual.length).toBe(expected.length);
  return actual.reduce((worst, value, i) => {
    const want = expected[i] ?? Number.NaN;
    return Math.max(worst, Math.abs(value - want) - halfStep(want));
  }, 0);
}

function fp32Fixture(page: ParityCase, key: string): Float32Array {
  const bytes = readFileSync(path.join(parityDir, '../../tiny/parity', `${page.name}.${key}.f32`));
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** The reference's tokens up to (not including) the first step whose choice fp16 cannot settle. */
function wellDefinedPrefix(page: ParityCase): number[] {
  const unsure = page.greedy_margins.findIndex((margin) => margin < WELL_DEFINED_MARGIN);
  return page.greedy_tokens.slice(0, unsure < 0 ? undefined : unsure);
}

let pkg: ModelPackage;
let runner: ModelRunner;
const limits = (maxNewTokens = parity.max_new_tokens): DecodeLimits => ({ eos: parity.eos, maxNewTokens, rule: parity.no_repeat_ngram });

async function input(png: Uint8Array): Promise<PageInput> {
  return pageInput(runner, pkg.manifest, loadTokenizer(pkg.tokenizerJson), await decodeImage(png), resolutionMode(pkg.manifest, 'gundam'));
}

beforeAll(async () => {
  pkg = await openModelPackage(packageDir, { threads: 1 });
  runner = new ModelRunner(pkg);
});
afterAll(async () => pkg.release());

describe('the fp16 tiny package', () => {
  it('declares fp16 weights and I/O with fp32 logits, and every graph opens on the CPU', () => {
    expect(pkg.manifest.dtype).toBe('float16');
    const decoder = pkg.manifest.graphs.decoder;
    expect(decoder?.inputs.find((spec) => spec.name === 'inputs_embeds')?.dtype).toBe('float16');
    expect(decoder?.inputs.find((spec) => spec.name === 'past_key.0')?.dtype).toBe('float16');
    expect(decoder?.outputs.find((spec) => spec.name === 'logits')?.dtype).toBe('float32');
    expect([...pkg.sessions.keys()].sort()).toEqual(['decoder', 'embedding', 'mtp', 'vision_128', 'vision_256']);
  });
});

describe('a package whose manifest misstates its dtype', () => {
  async function withManifest(edit: (manifest: Record<string, unknown>) => void): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-fp16-manifest-'));
    await cp(packageDir, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    edit(manifest);
    await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    return dir;
  }
  type Graphs = Record<string, { inputs: { name: string; dtype: string }[] }>;

  it('is refused when it opens, naming the graph, the input and both dtypes', async () => {
    const dir = await withManifest((manifest) => {
      for (const input of (manifest.graphs as Graphs).decoder?.inputs ?? []) if (input.dtype === 'float16') input.dtype = 'float32';
    });
    try {
      await expect(openModelPackage(dir, { threads: 1 })).rejects.toThrow(/decoder\.onnx: input inputs_embeds is float16 but the manifest declares float32; get the model again/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is refused when its package dtype disagrees with the cache inputs', async () => {
    const dir = await withManifest((manifest) => (manifest.dtype = 'float32'));
    try {
      await expect(openModelPackage(dir, { threads: 1 })).rejects.toThrow(/decoder\.onnx: cache input past_key\.0 is float16 in a float32 package/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(parity.cases)('the fp16 package on the $name page', (page) => {
  const png = () => readFileSync(path.join(parityDir, page.image));

  it('lays out the prompt ids and visual features of the fp16 reference', async () => {
    const { ids, embeds, visualTokens } = await input(png());
    expect(ids).toEqual(page.prompt_ids);
    const first = ids.indexOf(pkg.manifest.tokens.special['<image>'] ?? -1);
    const visual = embeds.subarray(first * runner.hidden, (first + visualTokens) * runner.hidden);
    expect(maxBeyondHalfStep(visual, fixture(page, 'visual_sequence'))).toBeLessThan(BEYOND_ONE_HALF_STEP);
  });

  it('prefills to the reference first logits and decodes its greedy tokens where they are well-defined', async () => {
    const { embeds } = await input(png());
    const start = await prefill(runner, embeds, 8);
    expect(start.out.logits).toBeInstanceOf(Float32Array);
    const logits = start.out.logits as Float32Array;
    expect(maxDifference(logits, fixture(page, 'first_logits'))).toBeLessThan(LOGIT_TOLERANCE);
    expect(maxDifference(logits, fp32Fixture(page, 'first_logits')), 'the fp32 reference').toBeGreaterThan(LOGIT_TOLERANCE * 3);
    expect(maxDifference(start.out.hidden as Float32Array, fixture(page, 'prompt_hidden'))).toBeLessThan(PROMPT_HIDDEN_TOLERANCE);
    const result = await decodeGreedy(runner, start, limits());
    const expected = wellDefinedPrefix(page);
    // a prefix this long makes the comparison mean something
    expect(expected.length).toBeGreaterThanOrEqual(10);
    expect(result.tokens.slice(0, expected.length)).toEqual(expected);
    // the fp16 cache grew from 8 rows and holds halves
    expect(start.decoderCache.length).toBe(page.prompt_ids.length + result.tokens.length - 1);
    expect((start.decoderCache as KvCache).pastFeeds()['past_key.0']?.type).toBe('float16');
  });

  it('runs the MTP head to the reference logits', async () => {
    const out = await runner.mtp(runner.mtpCache(4), fixture(page, 'mtp_inputs_embeds'), fixture(page, 'prompt_hidden'));
    expect(maxDifference(out.logits as Float32Array, fixture(page, 'mtp_last_logits'))).toBeLessThan(LOGIT_TOLERANCE);
    expect(maxBeyondHalfStep(out.hidden as Float32Array, fixture(page, 'mtp_hidden'))).toBeLessThan(BEYOND_ONE_HALF_STEP);
  });
});

describe('speculative decoding on the fp16 package', () => {
  // parity pages and printed-page pictures of several shapes: with and without tiles
  const pages = (): [string, Uint8Array][] => [
    ...parity.cases.map((page): [string, Uint8Array] => [page.name, readFileSync(path.join(parityDir, page.image))]),
    ...([[300, 400], [800, 300], [200, 150], [640, 900], [500, 500], [1000, 240]] as const)
      .map(([width, height]): [string, Uint8Array] => [`${width}x${height}`, pngPage(width, height)]),
  ];

  it('commits exactly the greedy tokens for K = 1..4', async () => {
    let tiled = 0;
    for (const [name, png] of pages()) {
      const page = await input(png);
      if (page.grid[0] * page.grid[1] > 1) tiled++;
      const expected = (await decodeGreedy(runner, await prefill(runner, page.embeds, 64), limits(32))).tokens;
      expect(expected.length, name).toBeGreaterThan(1);
      for (const k of [1, 2, 3, 4]) {
        const result = await decodeSpeculative(runner, await prefill(runner, page.embeds, 64), null, k, limits(32), page.ids);
        expect(result.tokens, `${name}, K=${k}`).toEqual(expected);
      }
    }
    expect(tiled).toBeGreaterThan(1);
  });
});

describe('fp16 caches through accepted drafts and rollbacks', () => {
  /** Drafts greedy's own continuation except at `position` (4 = nowhere), so every K commits several tokens. */
  function oracleWrongAt(inner: Drafter, expected: readonly number[], position: number): Drafter {
    return {
      draft: async (k, generated) => {
        await inner.draft(k, generated);
        return Array.from({ length: k }, (_, i) => {
          const right = expected[generated.length + i] ?? 0;
          return i === position ? (right + 1) % runner.vocab : right;
        });
      },
      commit: (tokens, hidden) => inner.commit(tokens, hidden),
    };
  }

  it('stays lossless when K = 4 drafts agree up to each position and are wrong there', async () => {
    const page = await input(pngPage(800, 300));
    const expected = (await decodeGreedy(runner, await prefill(runner, page.embeds, 64), limits(32))).tokens;
    for (let wrong = 0; wrong <= 4; wrong++) {
      const start = await prefill(runner, page.embeds, 64);
      const mtp = await MtpDrafter.start(runner, parity.no_repeat_ngram, page.ids, start.out.hidden, expected[0] ?? -1);
      const result = await decodeSpeculative(runner, start, oracleWrongAt(mtp, expected, wrong), 4, limits(32), page.ids);
      expect(result.tokens, `wrong draft at ${wrong}`).toEqual(expected);
      if (wrong === 4) expect(result.tokens.length / result.steps).toBeGreaterThan(3.5);
    }
  });

  // The speculative run's hidden rows were computed over fp16 KV rows, the reference's long pass keeps
  // its keys and values in fp32: measured 9.8e-4 apart on keys up to 3.05, about one fp16 step there.
  // A draft row paired with the wrong token or hidden state, or one not rolled back, is off by O(1).
  const DRAFT_CACHE_TOLERANCE = 4e-3;

  it('leaves the draft cache equal, within fp16 rounding, to one MTP pass over the committed tokens', async () => {
    const page = await input(pngPage(300, 400));
    const start = await prefill(runner, page.embeds, 64);
    const first = (await decodeGreedy(runner, await prefill(runner, page.embeds, 64), limits(32))).tokens[0] ?? -1;
    const drafter = await MtpDrafter.start(runner, parity.no_repeat_ngram, page.ids, start.out.hidden, first);
    const result = await decodeSpeculative(runner, start, drafter, 3, limits(32), page.ids);
    const settled = drafter.settledLength;
    expect(settled).toBeGreaterThan(page.ids.length + 5);

    const all = [...page.ids, ...result.tokens];
    const generated = await runner.embed(result.tokens.slice(0, settled - page.ids.length));
    const full = new Float32Array(page.embeds.length + generated.length);
    full.set(page.embeds);
    full.set(generated, page.embeds.length);
    const hidden = (await runner.decode(runner.decoderCache(settled), full, 1)).hidden;
    const reference = runner.mtpCache(settled);
    await runner.mtp(reference, await runner.embed(all.slice(1, settled + 1)), hidden);

    const expected = (reference as CapacityKvCache).heldRows();
    drafter.cache.truncate(settled);
    const actual = (drafter.cache as CapacityKvCache).heldRows();
    for (const name of ['keys', 'values'] as const) {
      expect(expected[name], name).toBeInstanceOf(Uint16Array);
      const want = floatsFrom(expected[name] as Uint16Array);
      const got = floatsFrom(actual[name] as Uint16Array);
      expect(got.length, name).toBe(want.length);
      expect(maxDifference(got, want), name).toBeLessThan(DRAFT_CACHE_TOLERANCE);
    }
  });
});

describe('folio convert with the fp16 package', () => {
  it('converts a PDF page with --engine vlm, speculating, and writes its Markdown', async () => {
    const root = path.resolve(import.meta.dirname, '..');
    if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
    const out = await mkdtemp(path.join(os.tmpdir(), 'folio-fp16-'));
    try {
      const run = spawnSync(process.execPath, [path.join(root, 'bin/folio.js'), 'convert', path.join(root, 'test/fixtures/out/headings.pdf'),
        '-o', out, '--engine', 'vlm', '--model', packageDir, '--max-tokens', '20', '--spec-k', '3', '--json'], { cwd: root, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { event: string; stats?: { engine?: string; decode?: Record<string, unknown> } });
      const done = events.filter((event) => event.event === 'page-done');
      expect(done).toHaveLength(1);
      expect(done[0]?.stats?.engine).toBe('vlm');
      expect(done[0]?.stats?.decode).toMatchObject({ model: 'folio-tiny-fp16', newTokens: 20, specKSetting: 3 });
      expect((await readFile(path.join(out, 'headings.md'), 'utf8')).trim().length).toBeGreaterThan(0);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
