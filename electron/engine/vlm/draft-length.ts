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
  /**
   * Wall time before the step bringing the draft head up to date (the prompt on a page's first
   * drafting step, the rows of plain steps since): no part of K's cost, but part of a probe's.
   */
  catchUpMs?: number;
}

export interface DraftLength {
  /** The most drafts a step may ask for; sizes the per-position counts. */
  readonly maxK: number;
  /** A page starts: the draft head will first take its prompt's rows; the decoder's prefill of them took `prefillMs`. */
  beginPage?(promptRows: number, prefillMs?: number): void;
  next(): number;
  observe(sample: StepSample): void;
}

/** What a step costs on the device, measured before decoding (step-costs.ts). */
export interface DraftPrior {
  /** Per K, ms per step; NaN where not measured. Only the ratios to the plain step are used. */
  stepMs: readonly number[];
  /** Ms per row for the draft head to catch up on rows it has not seen; NaN when not measured. */
  catchUpMsPerRow: number;
}

export const NO_PRIOR: DraftPrior = { stepMs: [], catchUpMsPerRow: Number.NaN };

export function fixedDraftLength(k: number): DraftLength {
  return { maxK: k, next: () => k, observe: () => undefined };
}

export interface AutoSettings {
  /**
   * The most of the decoding time probes may cost: a probe (a step at a K other than the best) costs
   * what it took beyond what the best K would have taken for the tokens it committed (a probe that
   * did better earns credit). A probe runs only while the probes' cost so far, plus what this one
   * is expected to cost, stays within this share of all the decoding time so far; so on a device
   * where speculation never pays (a CPU, where a verify pass reads many more experts) decoding is
   * greedy but for this share, and where it does pay the probes that find it cost nothing.
   */
  probeBudget: number;
  /**
   * Once acceptance is known, at most one step in this many is a probe. Every other probe drafts
   * the largest K, so acceptance at every position stays known; the rest run the K, other than the
   * chosen one, that ran longest ago, so every K's cost stays known as the context grows and the
   * machine's load changes. Each probe whose first draft is wrong doubles the gap, up to
   * `maxProbeEvery`: a head that is never right stops costing anything.
   */
  probeEvery: number;
  maxProbeEvery: number;
  /** Weight kept by old measurements at each new step: the memory is about 1 / (1 - decay) steps. */
  decay: number;
}

export const DEFAULT_AUTO_SETTINGS: AutoSettings = { probeBudget: 0.05, probeEvery: 48, maxProbeEvery: 1536, decay: 0.99 };

/** Steps of a K whose least time is its cost, before a running mean takes over. */
const FIRST_STEPS_BY_LEAST = 3;

/**
 * Feeding the head a page's prompt costs at most this share of the decoder's prefill of it: the head
 * is one block against the decoder's 12 layers. It bounds the estimate from the ms a row measured
 * on a few rows, which on a GPU is mostly fixed cost and would overstate a long prompt many times.
 */
const HEAD_SHARE_OF_PREFILL = 0.25;

/** Probes before acceptance counts as known; until then probes wait only on the budget, not on `probeEvery`. */
const PROBES_TO_LEARN = 4;

export interface DraftEstimate {
  /** Per draft position, the chance a draft there is right given the ones before it were. */
  acceptance: number[];
  /**
   * Per K (0..maxK), milliseconds per step: measured; else scaled from the plain step by the
   * measured prior (step-costs.ts); else fitted on a line through those measured.
   */
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
  private probes = 0;
  /** The probe under way: its K's expected ms per committed token at the best K when it was chosen. */
  private probing: { msPerToken: number } | null = null;
  private elapsedMs = 0;
  private probeCostMs = 0;
  /** Rows the draft head has not taken (the page's prompt, then plain steps' tokens): a probe first feeds them to it. */
  private rowsBehind = 0;
  /** Ms a row for that, as last measured (NaN: not yet). */
  private catchUpMsPerRow: number;
  /** The most feeding the head this page's prompt can cost (until the page's first drafting step). */
  private promptCatchUpBoundMs = Number.POSITIVE_INFINITY;

  /**
   * @param prior step costs measured before decoding: of the steps only the ratios to the plain
   *   step are used, as the page's own context makes every step dearer.
   */
  constructor(
    readonly maxK: number,
    private readonly settings: AutoSettings = DEFAULT_AUTO_SETTINGS,
    private readonly prior: DraftPrior = NO_PRIOR,
  ) {
    this.catchUpMsPerRow = prior.catchUpMsPerRow;
    this.drafted = Array<number>(maxK).fill(0);
    this.accepted = Array<number>(maxK).fill(0);
    this.stepMs = Array<number>(maxK + 1).fill(Number.NaN);
    this.seen = Array<number>(maxK + 1).fill(0);
    this.lastRun = Array<number>(maxK + 1).fill(0);
    this.probeGap = settings.probeEvery;
  }

  /** Probes' cost so far as a share of all decoding time (see `probeBudget`). */
  get probeShare(): number {
    return this.elapsedMs ? Math.max(0, this.probeCostMs) / this.elapsedMs : 0;
  }

  beginPage(promptRows: number, prefillMs = Number.POSITIVE_INFINITY): void {
    this.rowsBehind = promptRows;
    this.promptCatchUpBoundMs = HEAD_SHARE_OF_PREFILL * prefillMs;
  }

  next(): number {
    this.probing = null;
    if (this.maxK === 0) return 0;
    // a plain step first: the yardstick of every probe, and the prior gives only ratios to it
    if ((this.seen[0] ?? 0) === 0) return 0;
    const { stepMs, tokensPerStep, best } = this.estimate();
    const msPerToken = (stepMs[best] ?? Number.POSITIVE_INFINITY) / (tokensPerStep[best] ?? 1);
    const learning = this.probes < PROBES_TO_LEARN;
    if (!learning && this.sinceProbe < this.probeGap) return best;
    const k = best < this.maxK && this.probes % 2 === 0 ? this.maxK : this.stalest(best);
    // a page's first probe feeds the head its whole prompt: on a CPU that can cost more than the probe's step
    const catchUp = Number.isNaN(this.catchUpMsPerRow) ? 0 : Math.min(this.catchUpMsPerRow * this.rowsBehind, this.promptCatchUpBoundMs);
    const expectedCost = catchUp + Math.max(0, (stepMs[k] ?? 0) - (tokensPerStep[k] ?? 1) * msPerToken);
    if (this.probeCostMs + expectedCost > this.settings.probeBudget * (this.elapsedMs + (stepMs[k] ?? 0))) return best;
    this.probing = { msPerToken };
    return k;
  }

  /** The K other than `best` that ran longest ago, the larger on a tie. */
  private stalest(best: number): number {
    let pick = best === this.maxK ? this.maxK - 1 : this.maxK;
    for (let k = pick - 1; k >= 0; k--) {
      if (k !== best && (this.lastRun[k] ?? 0) < (this.lastRun[pick] ?? 0)) pick = k;
    }
    return pick;
  }

  observe({ k, accepted, ms, catchUpMs = 0 }: StepSample): void {
    if (k < 0 || k > this.maxK) return;
    const { decay } = this.settings;
    this.elapsedMs += ms + catchUpMs;
    if (this.probing) this.probeCostMs += catchUpMs + ms - (accepted + 1) * this.probing.msPerToken;
    if (k > 0) {
      if (catchUpMs > 0 && this.rowsBehind > 0) this.catchUpMsPerRow = catchUpMs / this.rowsBehind;
      this.rowsBehind = 0;
      this.promptCatchUpBoundMs = Number.POSITIVE_INFINITY;
    } else this.rowsBehind += accepted + 1;
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
    // a K's first steps pay for warming up (allocations, a first pass): the least of them is its cost;
    // later, a step 3x the running mean is the machine stalling (another process ran), not K's cost
    if (Number.isNaN(previous)) this.stepMs[k] = ms;
    else if ((this.seen[k] ?? 0) < FIRST_STEPS_BY_LEAST) this.stepMs[k] = Math.min(previous, ms);
    else this.stepMs[k] = previous * (1 - weight) + Math.min(ms, 3 * previous) * weight;
    this.seen[k] = (this.seen[k] ?? 0) + 1;
    this.lastRun[k] = ++this.step;
    if (this.probing && k > 0) {
      this.probeGap = accepted > 0 ? this.settings.probeEvery : Math.min(this.settings.maxProbeEvery, this.probeGap * 2);
    }
    if (this.probing) this.probes++;
    this.sinceProbe = this.probing ? 0 : this.sinceProbe + 1;
    this.probing = null;
  }

  estimate(): DraftEstimate {
    // one pseudo-miss per position: a position never judged counts as never right
    const acceptance = this.drafted.map((count, i) => (this.accepted[i] ?? 0) / (count + 1));
    const prior = this.prior.stepMs;
    const plain = Number.isNaN(this.stepMs[0] ?? Number.NaN) ? (prior[0] ?? Number.NaN) : (this.stepMs[0] ?? Number.NaN);
    const scaled = this.stepMs.map((ms, k) => (Number.isNaN(ms) && k > 0 ? plain * ((prior[k] ?? Number.NaN) / (prior[0] ?? Number.NaN)) : k === 0 ? plain : ms));
    // a step drafting K runs a decoder pass of K + 1 rows and the drafts: never cheaper than a plain
    // step, whatever a noisy measurement said (one once made K = 2 look cheaper with drafts never right)
    const stepMs = fillByLine(scaled).map((ms, k, all) => (k > 0 ? Math.max(ms, all[0] ?? ms) : ms));
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
