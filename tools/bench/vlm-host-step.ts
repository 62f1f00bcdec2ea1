/**
 * Part two of `npm run bench:vlm`: the host-side work of one decode step at the real model's sizes,
 * with synthetic arrays in place of the graphs' outputs: the input tensors, the capacity cache the
 * CPU runs (its buffers and attention bias as feeds, the new rows written into their slots), the
 * token choice under the n-gram rule (from fp32 logits, or from an fp16 package's halves), the stop checks (repetition guard included) and, for a speculative step,
 * verification and rollback. Everything a step does except `session.run`.
 */

import * as ort from 'onnxruntime-node';
import { finished, type DecodeLimits } from '../../electron/engine/vlm/decoding.js';
import { halvesFrom } from '../../electron/engine/vlm/half-float.js';
import { CapacityDecoderCache } from '../../electron/engine/vlm/capacity-decoder-cache.js';
import { DEFAULT_REPETITION_RULE } from '../../electron/engine/vlm/repetition.js';
import { keepVerifiedRows } from '../../electron/engine/vlm/speculative.js';
import { nextToken } from '../../electron/engine/vlm/token-choice.js';

export const REAL_SIZES = { vocab: 129_280, layers: 12, heads: 10, headDim: 128, hidden: 1280, context: 2000 };
const { vocab, layers, heads, headDim, hidden, context } = REAL_SIZES;
/** jina-ocr-v1's rule: no 35-gram twice within 1,024 tokens; `<td>` and `</td>` exempt. */
const JINA_RULE = { size: 35, window: 1024, exempt: [128821, 128822] };
const SPECIAL_IDS = Array.from({ length: 12 }, (_, i) => 128815 + i);

export interface StepTiming {
  name: string;
  medianMs: number;
  p95Ms: number;
  /** Median time to sum one logits row, measured between the steps: how loaded the machine was meanwhile. */
  rowSumMs: number;
}

/** Times `rounds` host-side steps after a warm-up; `k` drafts per step (0: a plain greedy step). */
export function timeHostStep(k: number, fp16Logits: boolean, rounds: number): StepTiming {
  const names = Array.from({ length: layers }, (_, l) => [`past_key.${l}`, `past_value.${l}`]).flat();
  const cache = new CapacityDecoderCache(layers, { heads, headDim, dtype: 'float32', capacity: context + 64 });
  cache.appendPresent(presentRows(names, context));
  const rows = k + 1;
  const present = presentRows(names, rows);
  let seed = 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const logits32 = Float32Array.from({ length: rows * vocab }, () => random() * 20 - 10);
  const logits16 = halvesFrom(logits32);
  const embeds = Float32Array.from({ length: rows * hidden }, () => random());
  // text-like history: no loop, so every check runs to its end as on a real page
  const generated = Array.from({ length: context - 500 }, () => Math.floor(random() * 100_000));
  const limits: DecodeLimits = { eos: 1, maxNewTokens: 8192, rule: JINA_RULE, repetition: { ...DEFAULT_REPETITION_RULE, ignored: SPECIAL_IDS } };
  const times: number[] = [];
  const rowSums: number[] = [];
  const yardstick = new Float32Array(vocab).fill(1);
  for (let round = 0; round < rounds + 20; round++) {
    const summed = performance.now();
    if (sum(yardstick) !== vocab) throw new Error('the yardstick row does not add up');
    if (round >= 20) rowSums.push(performance.now() - summed);
    const started = performance.now();
    const lengthBefore = cache.length;
    // the feeds ModelRunner.decode builds (only their cost matters here), then what it does with the outputs
    const feeds: Record<string, ort.Tensor> = {
      inputs_embeds: new ort.Tensor('float32', embeds, [1, rows, hidden]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: rows }, (_, i) => BigInt(lengthBefore + i)), [1, rows]),
      num_logits: new ort.Tensor('int64', BigInt64Array.from([BigInt(rows)]), []),
      ...cache.feeds(rows),
    };
    cache.appendPresent(present);
    // an fp16 package's logits are chosen from as halves, unwidened, as ModelRunner passes them on
    const logits = fp16Logits ? logits16 : logits32;
    // verification: each row's token as greedy decoding would choose it, with the stop checks
    const committed: number[] = [];
    for (let row = 0; row < rows; row++) {
      committed.push(nextToken(logits, vocab, row, [...generated, ...committed], limits.rule));
      if (finished([...generated, ...committed], limits)) break;
    }
    keepVerifiedRows(cache, lengthBefore, 1);
    cache.truncate(lengthBefore);
    if (round >= 20) times.push(performance.now() - started);
  }
  return {
    name: `${k === 0 ? 'greedy step' : `verify step, K=${k}`}${fp16Logits ? ', fp16 logits' : ''}`,
    medianMs: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    rowSumMs: quantile(rowSums, 0.5),
  };
}

function sum(row: Float32Array): number {
  let total = 0;
  for (let i = 0; i < row.length; i++) total += row[i] as number;
  return total;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
}

function presentRows(names: readonly string[], rows: number): Record<string, ort.Tensor> {
  const out: Record<string, ort.Tensor> = {};
  for (const name of names) {
    out[name.replace(/^past_/, 'present_')] = new ort.Tensor('float32', new Float32Array(rows * heads * headDim), [1, rows, heads, headDim]);
  }
  return out;
}
