/**
 * What a decoding step costs on an opened package: a short made-up prompt is prefilled and decoded,
 * a few plain steps, then (with an MTP head) a few steps drafting K. It is the decoding part of the
 * page `--device auto` compares devices by (page-costs.ts), and how `--spec-k auto` knows, before
 * a page, whether speculation can pay there.
 * The first step of each kind is a warm-up (WebGPU compiles its shaders then) and is not counted.
 */

import { prefill, type DecodeLimits } from './decoding.js';
import { bannedIds } from '../../core/model/manifest.js';
import type { ModelPackage } from './model-package.js';
import { ModelRunner } from './model-runner.js';
import { decodeSpeculative } from './speculative.js';
import type { DraftLength, StepSample } from './draft-length.js';

export interface StepCosts {
  /**
   * Per K (0: a plain step), the least milliseconds of its steps; NaN where not measured. The least,
   * not the median: on a shared machine a slow step measures the neighbours (a median of four
   * steps once put a plain step at 8.3 ms against 1.5 ms drafting three, on a 2-core machine at load 11).
   */
  stepMs: number[];
  /** Ms a row for the draft head to catch up on the rows before its first drafting step; NaN without a head. */
  catchUpMsPerRow: number;
  /** The prompt's prefill, milliseconds. */
  prefillMs: number;
  /** Everything the measurement took, warm-ups included, milliseconds. */
  totalMs: number;
}

export interface StepCostPlan {
  /** Rows of the made-up prompt. */
  promptTokens: number;
  /** Counted plain steps, after one warm-up. */
  steps: number;
  /** Counted steps drafting `draftK`, after one warm-up: on a CPU one costs several plain steps. */
  draftSteps: number;
  /** The K measured beside plain steps (when the package has an MTP head); 0: plain steps only. */
  draftK: number;
}

/**
 * A 4-row prompt: the prefill is no part of what is compared, and on a slow device (WebGPU on
 * lavapipe, a real-width 2-layer package: 2 s a row) a longer one was most of the measurement.
 */
export const DEFAULT_STEP_COST_PLAN: StepCostPlan = { promptTokens: 4, steps: 4, draftK: 3, draftSteps: 2 };

/** A counted plain step this many times the best device's ends a device's measurement: it has lost. */
const LOST_BY = 3;

/**
 * @param slowerThanMs a plain step slower than this and the device has lost (page-costs.ts derives
 *   it from the quickest page measured so far): once this one's plain steps are slower, its
 *   drafting steps are not measured (only the chosen device's are needed), and one plain step
 *   `LOST_BY` times slower ends its measurement.
 */
export async function measureStepCosts(pkg: ModelPackage, plan: StepCostPlan = DEFAULT_STEP_COST_PLAN, slowerThanMs = Number.POSITIVE_INFINITY): Promise<StepCosts> {
  const started = performance.now();
  const runner = new ModelRunner(pkg);
  const { manifest } = pkg;
  const vocab = manifest.architecture.language_config.vocab_size;
  const banned = bannedIds(manifest);
  // any ids will do: the cost of a step does not depend on what the tokens say
  const promptIds = Array.from({ length: plan.promptTokens }, (_, i) => (i * 7919 + 13) % vocab).filter((id) => !banned.has(id));
  const draftK = runner.hasMtp ? plan.draftK : 0;
  const schedule = [...Array<number>(plan.steps + 1).fill(0), ...Array<number>(draftK ? plan.draftSteps + 1 : 0).fill(draftK)];
  const policy = new ScheduledDraftLength(schedule, plan.steps + 1, slowerThanMs);
  policy.beginPage(promptIds.length);
  const start = await prefill(runner, await runner.embed(promptIds), promptIds.length + schedule.length * (draftK + 1) + 1);
  const limits: DecodeLimits = {
    eos: -1,
    maxNewTokens: schedule.length * (draftK + 1) + 1,
    rule: { ...manifest.decoding.no_repeat_ngram, alwaysBanned: banned },
    signal: policy.done,
  };
  try {
    await decodeSpeculative(runner, start, null, policy, limits, promptIds);
  } finally {
    start.decoderCache.release();
  }
  return { stepMs: policy.least(), catchUpMsPerRow: policy.catchUpMsPerRow, prefillMs: start.ms, totalMs: performance.now() - started };
}

/** Plays a fixed list of K and records each step's time; its signal ends decoding when the list is played. */
class ScheduledDraftLength implements DraftLength {
  readonly maxK: number;
  private readonly samples: StepSample[] = [];
  private readonly controller = new AbortController();
  private played = 0;
  private rowsBehind = 0;
  catchUpMsPerRow = Number.NaN;

  constructor(
    private readonly schedule: readonly number[],
    private readonly plainSteps: number,
    private readonly slowerThanMs: number,
  ) {
    this.maxK = Math.max(0, ...schedule);
  }

  beginPage(promptRows: number): void {
    this.rowsBehind = promptRows;
  }

  get done(): AbortSignal {
    return this.controller.signal;
  }

  next(): number {
    return this.schedule[this.played] ?? 0;
  }

  observe(sample: StepSample): void {
    // each K's first step warms it up
    // the first drafting step fed the head the prompt and the plain steps' rows
    if (sample.k > 0 && Number.isNaN(this.catchUpMsPerRow) && sample.catchUpMs) this.catchUpMsPerRow = sample.catchUpMs / this.rowsBehind;
    if (sample.k === 0) this.rowsBehind += sample.accepted + 1;
    const counted = this.schedule[this.played - 1] === sample.k;
    if (counted) this.samples.push(sample);
    this.played++;
    const lost = counted && sample.k === 0 && sample.ms > LOST_BY * this.slowerThanMs;
    const losing = this.played === this.plainSteps && (this.least()[0] ?? 0) > this.slowerThanMs;
    if (this.played >= this.schedule.length || losing || lost) this.controller.abort();
  }

  least(): number[] {
    return Array.from({ length: this.maxK + 1 }, (_, k) => {
      const times = this.samples.filter((sample) => sample.k === k).map((sample) => sample.ms);
      return times.length ? Math.min(...times) : Number.NaN;
    });
  }
}
