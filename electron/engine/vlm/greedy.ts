/** Plain greedy decoding, one decoder pass per token: the reference speculative decoding must equal. */

import { finished, type DecodeLimits, type DecodeResult, type DecoderModel, type Prefill } from './decoding.js';
import { nextToken } from './token-choice.js';

export async function decodeGreedy(runner: DecoderModel, start: Prefill, limits: DecodeLimits): Promise<DecodeResult> {
  const started = performance.now();
  runner.runMs = 0;
  const tokens: number[] = [];
  let logits = start.out.logits;
  let steps = 1;
  let stopped: DecodeResult['stopped'] | null = limits.signal?.aborted ? 'cancelled' : null;
  while (!stopped) {
    const token = nextToken(logits, runner.vocab, 0, tokens, limits.rule);
    tokens.push(token);
    limits.onTokens?.([token]);
    stopped = finished(tokens, limits);
    if (stopped) break;
    logits = (await runner.decode(start.decoderCache, await runner.embed([token]), 1)).logits;
    steps++;
  }
  return { tokens, steps, drafted: [], accepted: [], stepsAtK: [steps - 1], prefillMs: start.ms, decodeMs: performance.now() - started, runMs: runner.runMs, stopped };
}
