// Lossless FastMTP: on the tiny package, speculative decoding with K = 1..4 commits exactly the tokens
// of plain greedy decoding, on generated page images and the reference's parity pages, with the
// model's drafts and with drafts that agree up to a forced-wrong position; and the draft cache after rollbacks
// equals the one a single pass over the committed tokens builds. The draft-length policy is told what
// each step costs without the one-off pass that fills the head's cache with the prompt.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefill, type DecodeLimits } from '../electron/engine/vlm/decoding.js';
import { decodeGreedy } from '../electron/engine/vlm/greedy.js';
import { openModelPackage, type ModelPackage } from '../electron/engine/vlm/model-package.js';
import { ModelRunner } from '../electron/engine/vlm/model-runner.js';
import type { CapacityKvCache } from '../electron/engine/vlm/capacity-kv-cache.js';
import { decodeImage } from '../electron/engine/raster/page-raster.js';
import { pageInput, resolutionMode, type PageInput } from '../electron/engine/vlm/page-input.js';
import { loadTokenizer } from '../electron/engine/vlm/prompt.js';
import { rgbFromRgba, type RgbImage } from '../electron/engine/raster/rgb-image.js';
import { AutoDraftLength, type DraftLength, type StepSample } from '../electron/engine/vlm/draft-length.js';
import { decodeSpeculative, MtpDrafter, type Drafter } from '../electron/engine/vlm/speculative.js';

const packageDir = path.resolve(import.meta.dirname, '../tools/model/fixtures/tiny');
const parityDir = path.join(packageDir, 'parity');
const parity = JSON.parse(readFileSync(path.join(parityDir, 'parity.json'), 'utf8')) as {
  eos: number; max_new_tokens: number; no_repeat_ngram: { size: number; window: number; exempt: number[] };
  cases: { name: string; image: string; greedy_tokens: number[] }[];
};
const KS = [1, 2, 3, 4];
const MAX_NEW_TOKENS = 32;

/** A page-like picture: bands and boxes whose sizes and shades come from `seed`; some sizes need tiles. */
function syntheticPage(seed: number): RgbImage {
  let state = seed * 7919 + 17;
  const random = (): number => ((state = (state * 48271) % 2147483647) / 2147483647);
  const width = 60 + Math.floor(random() * 200);
  const height = 60 + Math.floor(random() * 200);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  for (let i = 0; i < 12; i++) {
    const shade = Math.floor(random() * 200);
    context.fillStyle = `rgb(${shade},${Math.floor(random() * 255)},${255 - shade})`;
    context.fillRect(random() * width, random() * height, 5 + random() * width * 0.6, 2 + random() * 12);
  }
  return rgbFromRgba(width, height, context.getImageData(0, 0, width, height).data);
}

let pkg: ModelPackage;
let runner: ModelRunner;
const limits = (rule = parity.no_repeat_ngram): DecodeLimits => ({ eos: parity.eos, maxNewTokens: MAX_NEW_TOKENS, rule });

async function input(image: RgbImage): Promise<PageInput> {
  return pageInput(runner, pkg.manifest, loadTokenizer(pkg.tokenizerJson), image, resolutionMode(pkg.manifest, 'gundam'));
}

async function greedy(page: PageInput, rule = parity.no_repeat_ngram): Promise<number[]> {
  return (await decodeGreedy(runner, await prefill(runner, page.embeds, 64), limits(rule))).tokens;
}

async function speculative(page: PageInput, k: number, rule = parity.no_repeat_ngram, drafter: Drafter | null = null, length: DraftLength | number = k) {
  return decodeSpeculative(runner, await prefill(runner, page.embeds, 64), drafter, length, limits(rule), page.ids);
}

/** K from a fixed schedule, plain steps (K = 0) included, as `auto` may switch. */
function schedule(ks: readonly number[]): DraftLength {
  let step = 0;
  return { maxK: 4, next: () => ks[step++ % ks.length] ?? 0, observe: () => undefined };
}
const SWITCHING = [3, 0, 0, 2, 0, 1, 4, 0, 0, 0, 2];

/** Drafts greedy's own continuation, except at `position` (4 = nowhere), where the draft is wrong. */
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

beforeAll(async () => {
  pkg = await openModelPackage(packageDir, { threads: 1 });
  runner = new ModelRunner(pkg);
});
afterAll(async () => pkg.release());

describe('speculative decoding is lossless', () => {
  it.each(parity.cases)('reproduces the reference greedy tokens of the $name page for K = 1..4', async (fixture) => {
    const page = await input(await decodeImage(readFileSync(path.join(parityDir, fixture.image))));
    const rule = parity.no_repeat_ngram;
    const reference = { eos: parity.eos, maxNewTokens: parity.max_new_tokens, rule };
    for (const k of KS) {
      const result = await decodeSpeculative(runner, await prefill(runner, page.embeds, 64), null, k, reference, page.ids);
      expect(result.tokens, `K=${k}`).toEqual(fixture.greedy_tokens);
    }
  });

  it('equals greedy decoding on 20 generated pages for K = 1..4, with a loose and a tight n-gram rule', async () => {
    let tiled = 0;
    for (let seed = 0; seed < 20; seed++) {
      const page = await input(syntheticPage(seed));
      if (page.grid[0] * page.grid[1] > 1) tiled++;
      // a bigram rule bans often, so bans land inside verification passes
      const rule = seed % 2 ? parity.no_repeat_ngram : { size: 2, window: 16, exempt: parity.no_repeat_ngram.exempt };
      const expected = await greedy(page, rule);
      for (const k of KS) {
        const result = await speculative(page, k, rule);
        expect(result.tokens, `page ${seed}, K=${k}`).toEqual(expected);
      }
    }
    expect(tiled).toBeGreaterThan(3);
  });

  it('equals greedy decoding when K changes from step to step, plain steps included, and under auto', async () => {
    for (let seed = 20; seed < 26; seed++) {
      const page = await input(syntheticPage(seed));
      const expected = await greedy(page);
      expect((await speculative(page, 0, undefined, null, schedule(SWITCHING))).tokens, `page ${seed}, switching`).toEqual(expected);
      expect((await speculative(page, 0, undefined, null, new AutoDraftLength(4))).tokens, `page ${seed}, auto`).toEqual(expected);
      // drafts that are always right, so that steps of every K commit several tokens
      const start = await prefill(runner, page.embeds, 64);
      const mtp = await MtpDrafter.start(runner, parity.no_repeat_ngram, page.ids, start.out.hidden, expected[0] ?? -1);
      const result = await decodeSpeculative(runner, start, oracleWrongAt(mtp, expected, 4), schedule(SWITCHING), limits(), page.ids);
      expect(result.tokens, `page ${seed}, switching with right drafts`).toEqual(expected);
      expect(result.stepsAtK[0]).toBeGreaterThan(0);
      expect(result.tokens.length / result.steps).toBeGreaterThan(1.5);
    }
  });

  it('stays lossless when drafts agree up to a position and are wrong there, for each position', async () => {
    // the random tiny model's own drafts almost never agree, so agreeing drafts come from an oracle
    // that knows greedy's answer; the MTP head still runs and is rolled back as usual
    const page = await input(syntheticPage(3));
    const expected = await greedy(page);
    for (let wrong = 0; wrong <= 4; wrong++) {
      const start = await prefill(runner, page.embeds, 64);
      const mtp = await MtpDrafter.start(runner, parity.no_repeat_ngram, page.ids, start.out.hidden, expected[0] ?? -1);
      const drafter = oracleWrongAt(mtp, expected, wrong);
      const result = await decodeSpeculative(runner, start, drafter, 4, limits(), page.ids);
      expect(result.tokens, `wrong draft at ${wrong}`).toEqual(expected);
      expect(result.accepted.slice(0, wrong).every((count) => count > 0), `accepted before ${wrong}`).toBe(true);
      expect(result.accepted.slice(wrong).every((count) => count === 0), `none accepted from ${wrong}`).toBe(true);
      // all four drafts and the bonus token each pass; the prefill yields one token alone
      if (wrong === 4) expect(result.tokens.length / result.steps).toBeGreaterThan(3.5);
    }
  });
});

describe('draft cache after rollbacks', () => {
  it.each([
    ['K = 3 every step', 3],
    ['K switching, with plain steps whose rows reach the head when drafting resumes', schedule(SWITCHING)],
    ['plain steps first, before the head has drafted at all', schedule([0, 0, 0, 2, 0, 3, 0, 0, 4])],
  ] as const)('equals one MTP pass over the committed tokens paired with the decoder hidden states: %s', async (_name, length) => {
    const page = await input(syntheticPage(5));
    const start = await prefill(runner, page.embeds, 64);
    const first = (await greedy(page))[0] ?? -1;
    const drafter = await MtpDrafter.start(runner, parity.no_repeat_ngram, page.ids, start.out.hidden, first);
    const result = await decodeSpeculative(runner, start, drafter, length, limits(), page.ids);
    const settled = drafter.settledLength;
    expect(settled).toBeGreaterThan(page.ids.length + 5);

    // the reference: decoder hidden states for the whole committed sequence, then one MTP pass
    const all = [...page.ids, ...result.tokens];
    const generatedEmbeds = await runner.embed(result.tokens.slice(0, settled - page.ids.length));
    const full = new Float32Array(page.embeds.length + generatedEmbeds.length);
    full.set(page.embeds);
    full.set(generatedEmbeds, page.embeds.length);
    const hidden = (await runner.decode(runner.decoderCache(settled), full, 1)).hidden;
    const reference = runner.mtpCache(settled);
    await runner.mtp(reference, await runner.embed(all.slice(1, settled + 1)), hidden);

    const expected = (reference as CapacityKvCache).heldRows();
    drafter.cache.truncate(settled);
    const actual = (drafter.cache as CapacityKvCache).heldRows();
    for (const name of ['keys', 'values'] as const) {
      expect(actual[name].length, name).toBe(expected[name].length);
      const worst = (actual[name] as Float32Array).reduce((max, value, i) => Math.max(max, Math.abs(value - (expected[name][i] ?? Number.NaN))), 0);
      expect(worst, name).toBeLessThan(1e-4);
    }
  });
});

describe('what a step costs, as the draft-length policy hears it', () => {
  it('leaves out the one-off pass that brings the head up to the prompt', async () => {
    const page = await input(syntheticPage(7));
    const samples: StepSample[] = [];
    let step = 0;
    const recording: DraftLength = { maxK: 4, next: () => [3, 0, 0, 2][step++ % 4] ?? 0, observe: (sample) => samples.push(sample) };
    const slowPromptPass = 300;
    const mtp = runner.mtp.bind(runner);
    runner.mtp = async (cache, embeds, hidden) => {
      if ((embeds as Float32Array).length / runner.hidden >= page.ids.length) await new Promise((resolve) => setTimeout(resolve, slowPromptPass));
      return mtp(cache, embeds, hidden);
    };
    try {
      await speculative(page, 0, undefined, null, recording);
    } finally {
      runner.mtp = mtp;
    }
    const drafting = samples.filter((sample) => sample.k > 0);
    expect(drafting.length).toBeGreaterThan(2);
    expect(Math.max(...drafting.map((sample) => sample.ms))).toBeLessThan(slowPromptPass);
  });
});
