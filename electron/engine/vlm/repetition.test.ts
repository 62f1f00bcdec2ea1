import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { prefill, type DecodeLimits, type DraftingModel } from './decoding.js';
import { CapacityKvCache } from './capacity-kv-cache.js';
import { decodeGreedy } from './greedy.js';
import { KvCache } from './kv-cache.js';
import { chooseToken } from './token-choice.js';
import { DEFAULT_REPETITION_RULE, nearlyRepeating, trailingLoop } from './repetition.js';
import { decodeSpeculative, type Drafter } from './speculative.js';

const VOCAB = 64;
const FIRST = 3;

/**
 * A model with one-number embeddings (the token id) whose logits depend only on the last token: the
 * best next token walks the cycle FIRST..FIRST+period-1 forever, the runner-up is another token.
 */
function cyclingModel(period: number): DraftingModel & { next(token: number): number } {
  const next = (token: number) => (token >= FIRST && token < FIRST + period ? FIRST + ((token - FIRST + 1) % period) : FIRST);
  const cache = (capacity: number) => new KvCache({ names: ['past_key'], heads: 1, headDim: 1, dtype: 'float32', capacity });
  return {
    vocab: VOCAB,
    hidden: 1,
    runMs: 0,
    next,
    embedTokens: async (ids) => Float32Array.from(ids),
    chooseTokens: async (logits, bans) => bans.map((ban, row) => chooseToken(logits as Float32Array, VOCAB, row, ban)),
    release: () => undefined,
    sliceRows: async (rows, from, to) => (rows as Float32Array).slice(from, to),
    joinRows: async (a, b) => Float32Array.from([...(a as Float32Array), ...(b as Float32Array)]),
    decoderCache: cache,
    mtpCache: (capacity) => new CapacityKvCache({ heads: 1, headDim: 1, dtype: 'float32', capacity }),
    decode: async (kv, rows, numLogits) => {
      const embeds = rows as Float32Array;
      kv.appendPresent({ present_key: new ort.Tensor('float32', new Float32Array(embeds.length), [1, embeds.length, 1, 1]) });
      const logits = new Float32Array(numLogits * VOCAB);
      for (let row = 0; row < numLogits; row++) {
        const token = embeds[embeds.length - numLogits + row] ?? 0;
        logits[row * VOCAB + next(token)] = 10;
        logits[row * VOCAB + ((token + 29) % VOCAB)] = 5;
      }
      return { logits, hidden: embeds.slice() };
    },
    mtp: async () => {
      throw new Error('the scripted model has no MTP head; pass a drafter');
    },
  };
}

/** Drafts the cycle's true continuation, so speculative steps commit K + 1 tokens. */
function rightDrafts(model: ReturnType<typeof cyclingModel>): Drafter {
  return {
    draft: async (k, generated) => {
      const drafts: number[] = [];
      let token = generated.at(-1) ?? 0;
      for (let i = 0; i < k; i++) drafts.push((token = model.next(token)));
      return drafts;
    },
    commit: async () => undefined,
  };
}

// a window shorter than the cycle: the n-gram rule cannot see the loop
const limits: DecodeLimits = { eos: 1, maxNewTokens: 4096, rule: { size: 3, window: 8, exempt: [] }, repetition: DEFAULT_REPETITION_RULE };

describe('repetition guard in the decoding loop', () => {
  it.each([1, 7, 40])('stops greedy decoding caught in a %i-token cycle, keeping the tokens up to the stop', async (period) => {
    const model = cyclingModel(period);
    const result = await decodeGreedy(model, await prefill(model, Float32Array.from([0, 2]), 16), limits);
    expect(result.stopped).toBe('repetition');
    // the exact check fires after enough repeats, unless the near-repetition window fills first
    const { minRepeats, minSpan, window } = DEFAULT_REPETITION_RULE;
    expect(result.tokens.length).toBe(Math.min(Math.max(period * minRepeats, minSpan), window));
    expect(result.tokens.slice(0, 3)).toEqual([FIRST, model.next(FIRST), model.next(model.next(FIRST))]);
  });

  it('stops speculative decoding at the same token as greedy, whatever K', async () => {
    const model = cyclingModel(7);
    const greedy = await decodeGreedy(model, await prefill(model, Float32Array.from([0, 2]), 16), limits);
    for (const k of [1, 2, 3, 4]) {
      const result = await decodeSpeculative(model, await prefill(model, Float32Array.from([0, 2]), 16), rightDrafts(model), k, limits, [0, 2]);
      expect(result.stopped, `K=${k}`).toBe('repetition');
      expect(result.tokens, `K=${k}`).toEqual(greedy.tokens);
    }
  });

  it('stops a model that the n-gram rule forces to vary its loop a little', async () => {
    const model = cyclingModel(10);
    // a 5-gram ban over 64 tokens: the cycle cannot repeat exactly, so the runner-up breaks in now and then
    const strict = { ...limits, eos: -1, rule: { size: 5, window: 64, exempt: [] } };
    const result = await decodeGreedy(model, await prefill(model, Float32Array.from([0, 2]), 16), strict);
    expect(result.stopped).toBe('repetition');
    expect(trailingLoop(result.tokens, DEFAULT_REPETITION_RULE)).toBeNull();
    expect(result.tokens.length).toBeLessThanOrEqual(DEFAULT_REPETITION_RULE.window);
  });

  it('lets the loop run to the token limit when no guard is set', async () => {
    const model = cyclingModel(7);
    const result = await decodeGreedy(model, await prefill(model, Float32Array.from([0, 2]), 16), { ...limits, maxNewTokens: 500, repetition: undefined });
    expect(result).toMatchObject({ stopped: 'limit', tokens: expect.any(Array) });
    expect(result.tokens).toHaveLength(500);
  });
});

describe('trailing loop', () => {
  const rule = { maxPeriod: 50, minRepeats: 4, minSpan: 12 };
  const cycle = (tokens: readonly number[], times: number) => Array.from({ length: times }, () => tokens).flat();

  it('finds a line repeated enough times and where its repeats begin', () => {
    expect(trailingLoop([9, 8, ...cycle([1, 2, 3], 4)], rule)).toEqual({ period: 3, start: 2 });
  });

  it('needs the repeats to span enough tokens, so a short dot leader is not a loop', () => {
    expect(trailingLoop([9, ...cycle([5], 11)], rule)).toBeNull();
    expect(trailingLoop([9, ...cycle([5], 12)], rule)).toEqual({ period: 1, start: 1 });
  });

  it('needs enough repeats of a long line', () => {
    const line = Array.from({ length: 10 }, (_, i) => 20 + i);
    expect(trailingLoop(cycle(line, 3), rule)).toBeNull();
    expect(trailingLoop(cycle(line, 4), rule)).toEqual({ period: 10, start: 0 });
  });

  it('ignores a loop that the latest tokens have left', () => {
    expect(trailingLoop([...cycle([1, 2, 3], 6), 7], rule)).toBeNull();
  });
});

describe('near-repetition', () => {
  const rule = { ...DEFAULT_REPETITION_RULE, ignored: [90, 91, 92, 93] };
  let seed = 7;
  const random = (below: number) => (seed = (seed * 48271) % 2147483647) % below;

  it('looks only at every eighth length, which greedy and speculative decoding both pass through', () => {
    const tokens = Array.from({ length: 600 }, (_, i) => i % 3);
    expect(nearlyRepeating(tokens, rule)).toBe(true);
    expect(nearlyRepeating(tokens.slice(0, 599), rule)).toBe(false);
  });

  it('passes text whose short runs of tokens are nearly all new', () => {
    const text = Array.from({ length: 600 }, () => 100 + random(5000));
    expect(nearlyRepeating(text, rule)).toBe(false);
  });

  it('catches a line repeated with a token changed every 35', () => {
    const line = [11, 12, 13, 14, 15, 16, 17, 18, 19, 10];
    const tokens = Array.from({ length: 600 }, (_, i) => (i % 35 === 34 ? 200 + random(50) : (line[i % line.length] ?? 0)));
    expect(trailingLoop(tokens, rule)).toBeNull();
    expect(nearlyRepeating(tokens, rule)).toBe(true);
  });

  it('passes an empty table, whose rows are only structure tokens', () => {
    const row = [90, ...Array.from({ length: 8 }, () => [92, 93]).flat(), 91];
    const table = [...Array.from({ length: 56 }, () => 100 + random(5000)), ...Array.from({ length: 40 }, () => row).flat()];
    expect(nearlyRepeating(table, rule)).toBe(false);
    expect(nearlyRepeating(table, { ...rule, ignored: [] })).toBe(true);
  });
});
