/**
 * Plain greedy decoding, one decoder pass per token, written apart from the decoding loop
 * (speculative.ts, which runs greedy as K = 0): the tests' oracle that loop must equal.
 */

import { finished, type DecodeLimits, type DecodeResult, type DecoderModel, type Prefill } from './decoding.js';
import { bannedTokens } from './token-choice.js';

export async function decodeGreedy(runner: DecoderModel, start: Prefill, limits: DecodeLimits): Promise<DecodeResult> {
  const started = performance.now();
  runner.runMs = 0;
  const tokens: number[] = [];
  let out = start.out;
  let steps = 1;
  let stopped: DecodeResult['stopped'] | null = limits.signal?.aborted ? 'cancelled' : null;
  while (!stopped) {
    runner.release(out.hidden);
    const [token] = await runner.chooseTokens(out.logits, [bannedTokens(tokens, limits.rule)], limits.rule.alwaysBanned);
    if (token === undefined) throw new Error('no token chosen');
    tokens.push(token);
    limits.onTokens?.([token]);
    stopped = finished(tokens, limits);
    if (stopped) break;
    out = await runner.decode(start.decoderCache, await runner.embedTokens([token]), 1);
    steps++;
  }
  return { tokens, steps, drafted: [], accepted: [], stepsAtK: [steps - 1], prefillMs: start.ms, decodeMs: performance.now() - started, runMs: runner.runMs, stopped };
}
