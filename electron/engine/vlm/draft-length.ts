/**
 * How many tokens to draft per speculative step. `fixedDraftLength` always drafts K; `AutoDraftLength`
 * measures, on the device it runs on, how often the draft head is right at each draft position and
 * what a step costs with each K, and picks the K that commits the most tokens per millisecond (K = 0:
 * no speculation, one plain decoder pass per token). It lives as long as its engine, so what it learnt
 * on one page carries to the next, and its choice can change from step to step.
 *
 * Tokens per step with K drafts, where a_i is the chance the i-th draft is right given the ones
 * before it were: E(K) = 1 + a_1 + a_1 a_2 + ... + a_1...a_K. Speed(K) = E(K) / cost(K).
 */

export interface StepSample {
  /** Drafts proposed this step (0: a plain decoder pass). */
  k: number;
  /** Of them, how many the decoder agreed with. */
  accepted: number;
  /** Wall time of the step: drafting, the verify pass, refilling the draft cache. */
  ms: number;
}

export interface DraftLength {
  /** The most drafts a step may ask for; sizes the per-position counts. */
  readonly maxK: number;
  next(): number;
  observe(sample: StepSample): void;
}

export function fixedDraftLength(k: number): DraftLength {
  return { maxK: k, next: () => k, observe: () => undefined };
}

export interface AutoSettings {
  /** Steps measured at the largest K, then at K = 0, before choosing. */
  exploreSteps: number;
  /**
   * One step in this many is a probe. Every other probe drafts the largest K, so acceptance at every
   * position stays known; the rest run the K, other than the chosen one, that ran longest ago, so
   * every K's cost stays known as the context grows and the machine's load changes. Each probe
   * whose first draft is wrong doubles the gap, up to `maxProbeEvery`: a head that is never right
   * stops costing anything.
   */
  probeEvery: number;
  maxProbeEvery: number;
  /** Weight kept by old measurements at each new step: the memory is about 1 / (1 - decay) steps. */
  decay: number;
}

export const DEFAULT_AUTO_SETTINGS: AutoSettings = { exploreSteps: 6, probeEvery: 48, maxProbeEvery: 1536, decay: 0.99 };

export interface DraftEstimate {
  /** Per draft position, the chance a draft there is right given the ones before it were. */
  acceptance: number[];
  /** Per K (0..maxK), milliseconds per step: measured, or fitted on a line through those measured. */
  stepMs: number[];
  /** Per K, expected tokens committed per step. */
  tokensPerStep: number[];
  /** The K with the most tokens per millisecond. */
  best: number;
}

export class AutoDraftLength implements DraftLength {
  private readonly drafted: number[];
  private readonly accepted: number[];
  /** Per K, a running mean of step time; NaN until measured. */
  private readonly stepMs: number[];
  private readonly seen: number[];
  /** Per K, the step after which it last ran (0: never). */
  private readonly lastRun: number[];
  private step = 0;
  private sinceProbe = 0;
  private probeGap: number;
  private probing = false;
  private probes = 0;

  constructor(
    readonly maxK: number,
    private readonly settings: AutoSettings = DEFAULT_AUTO_SETTINGS,
  ) {
    this.drafted = Array<number>(maxK).fill(0);
    this.accepted = Array<number>(maxK).fill(0);
    this.stepMs = Array<number>(maxK + 1).fill(Number.NaN);
    this.seen = Array<number>(maxK + 1).fill(0);
    this.lastRun = Array<number>(maxK + 1).fill(0);
    this.probeGap = settings.probeEvery;
  }

  next(): number {
    const { exploreSteps } = this.settings;
    if (this.maxK === 0) return 0;
    if ((this.seen[this.maxK] ?? 0) < exploreSteps) return this.maxK;
    if ((this.seen[0] ?? 0) < exploreSteps) return 0;
    const best = this.estimate().best;
    this.probing = this.sinceProbe >= this.probeGap;
    if (!this.probing) return best;
    return best < this.maxK && this.probes % 2 === 0 ? this.maxK : this.stalest(best);
  }

  /** The K other than `best` that ran longest ago, the larger on a tie. */
  private stalest(best: number): number {
    let pick = best === this.maxK ? this.maxK - 1 : this.maxK;
    for (let k = pick - 1; k >= 0; k--) {
      if (k !== best && (this.lastRun[k] ?? 0) < (this.lastRun[pick] ?? 0)) pick = k;
    }
    return pick;
  }

  observe({ k, accepted, ms }: StepSample): void {
    if (k < 0 || k > this.maxK) return;
    const { decay } = this.settings;
    for (let i = 0; i < this.maxK; i++) {
      this.drafted[i] = (this.drafted[i] ?? 0) * decay;
      this.accepted[i] = (this.accepted[i] ?? 0) * decay;
    }
    // position i was judged when every draft before it was accepted
    for (let i = 0; i < Math.min(k, accepted + 1); i++) this.drafted[i] = (this.drafted[i] ?? 0) + 1;
    for (let i = 0; i < Math.min(k, accepted); i++) this.accepted[i] = (this.accepted[i] ?? 0) + 1;
    const previous = this.stepMs[k] ?? Number.NaN;
    // a K that last ran long ago was measured at a shorter context or another load: its new sample counts for more
    const weight = Math.max(0.1, 1 - decay ** (this.step - (this.lastRun[k] ?? 0)));
    this.stepMs[k] = Number.isNaN(previous) ? ms : previous * (1 - weight) + ms * weight;
    this.seen[k] = (this.seen[k] ?? 0) + 1;
    this.lastRun[k] = ++this.step;
    if (this.probing && k > 0) {
      this.probeGap = accepted > 0 ? this.settings.probeEvery : Math.min(this.settings.maxProbeEvery, this.probeGap * 2);
    }
    if (this.probing) this.probes++;
    this.sinceProbe = this.probing ? 0 : this.sinceProbe + 1;
    this.probing = false;
  }

  estimate(): DraftEstimate {
    // one pseudo-miss per position: a position never judged counts as never right
    const acceptance = this.drafted.map((count, i) => (this.accepted[i] ?? 0) / (count + 1));
    const stepMs = fillByLine(this.stepMs);
    const tokensPerStep: number[] = [1];
    let chain = 1;
    for (let k = 1; k <= this.maxK; k++) {
      chain *= acceptance[k - 1] ?? 0;
      tokensPerStep.push((tokensPerStep[k - 1] ?? 1) + chain);
    }
    let best = 0;
    for (let k = 1; k <= this.maxK; k++) {
      const speed = (tokensPerStep[k] ?? 0) / (stepMs[k] ?? Number.POSITIVE_INFINITY);
      if (speed > (tokensPerStep[best] ?? 0) / (stepMs[best] ?? Number.POSITIVE_INFINITY)) best = k;
    }
    return { acceptance, stepMs, tokensPerStep, best };
  }
}

/** Missing entries (NaN) filled from the least-squares line through the present ones, index as x. */
export function fillByLine(values: readonly number[]): number[] {
  const known = values.flatMap((value, x) => (Number.isNaN(value) ? [] : [[x, value] as const]));
  if (known.length === 0) return values.map(() => Number.POSITIVE_INFINITY);
  if (known.length === 1) return values.map(() => known[0]?.[1] ?? Number.POSITIVE_INFINITY);
  const n = known.length;
  const meanX = known.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = known.reduce((sum, [, y]) => sum + y, 0) / n;
  const covariance = known.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = known.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const slope = covariance / variance;
  return values.map((value, x) => (Number.isNaN(value) ? Math.max(1e-6, meanY + slope * (x - meanX)) : value));
}
