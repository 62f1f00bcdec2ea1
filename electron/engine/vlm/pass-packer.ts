/**
 * Several pages decoding in the same decoder passes. Each page runs the one decoding loop
 * (speculative.ts, greedy as K = 0) as it does alone, through a `PackedPage`: a model whose decoder
 * and draft-head passes are not run at once but handed here. Once every page in flight waits on a
 * pass, the passes of one graph go as one packed pass (ModelRunner.packed), each page on its own lane
 * of the packed caches, and each page gets back what its own pass would have returned. So every page
 * keeps its own loop, tokens, drafts, stream, cancel and guards; only the passes are shared. A page
 * that ends leaves, and the next one's prefill joins the next pass.
 *
 * ONNX Runtime's Node binding runs each session call on the main thread, so nothing here runs
 * concurrently; "waiting" is an awaited promise.
 */

import type { DraftingModel } from './decoding.js';
import type { DecoderCache, MtpCache, ModelRunner, PassLogits, PassOutput, Rows } from './model-runner.js';
import { isTensor } from './model-runner.js';
import { LaneCache, type PackedCapacityCache } from './packed-capacity-cache.js';

type Graph = 'decoder' | 'mtp';

interface Waiting {
  graph: Graph;
  page: PackedPage;
  cache: LaneCache;
  embeds: Float32Array;
  previousHidden?: Float32Array;
  logits: number;
  /** Order of arrival, so that the longest-waiting graph wins a tie. */
  seq: number;
  resolve(out: PassOutput): void;
  reject(error: unknown): void;
}

/** How a page's decoder passes after its prefill were shared. */
export interface PackingStats {
  /** Decoder passes the page took part in after its prefill. */
  passes: number;
  /** The most pages in one of them, and the mean (this page counted). */
  mostPages: number;
  meanPages: number;
  /** Rows per decoder pass, all pages' together, on average. */
  meanRows: number;
}

/**
 * More rows than this in one page's request is a prompt (a prefill); fewer, a step (a token and its
 * drafts). A pass takes at most one prompt: prompts packed together attend over each other's rows
 * (masked), which grows with the square of their sum (four 949-row prompts: 3,796 x 3,796 scores
 * a head), where apart each costs its own square.
 */
const STEP_ROWS = 16;

export class PassPacker {
  readonly lanes: number;
  private readonly decoderPool: PackedCapacityCache;
  private readonly mtpPool: PackedCapacityCache | null;
  private readonly freeLanes: number[];
  private readonly laneWaiters: (() => void)[] = [];
  private readonly waiting: Waiting[] = [];
  private pages = 0;
  /** Pages on their way to a lane (their vision running or queued), not yet joined. */
  private arriving = 0;
  private running = false;
  private seq = 0;

  constructor(
    private readonly runner: ModelRunner,
    lanes: number,
  ) {
    this.lanes = lanes;
    const pools = runner.packedCaches(lanes);
    this.decoderPool = pools.decoder;
    this.mtpPool = pools.mtp;
    this.freeLanes = Array.from({ length: lanes }, (_, lane) => lane);
  }

  /** Bytes the packed caches hold, all lanes. */
  get bytes(): number {
    return this.decoderPool.bytes + (this.mtpPool?.bytes ?? 0);
  }

  /**
   * A page is on its way (its vision starts): while a lane is free and such a page is coming, the
   * pages decoding hold their passes, so that the lanes fill and pages decode together rather than
   * one by one, each ending before the next one's vision does (measured: 96-token pages never met
   * in a pass, docs/benchmarks.md). Call the result once the page has joined, or will not (blank,
   * failed, cancelled).
   */
  arrive(): () => void {
    this.arriving++;
    let gone = false;
    return () => {
      if (gone) return;
      gone = true;
      this.arriving--;
      this.runWhenAllWait();
    };
  }

  /** Whether the pages decoding hold their passes for pages on their way to free lanes. */
  get holding(): boolean {
    return this.arriving > 0 && this.pages < this.lanes;
  }

  /** A page joins once a lane is free; it must `leave` when done, whatever happened. */
  async join(): Promise<PackedPage> {
    while (this.freeLanes.length === 0) await new Promise<void>((resolve) => this.laneWaiters.push(resolve));
    const lane = this.freeLanes.shift() as number;
    this.pages++;
    return new PackedPage(this, this.runner, lane, this.decoderPool.lane(lane), this.mtpPool?.lane(lane) ?? null);
  }

  /** @internal PackedPage's: frees the page's lane; the others' passes no longer wait for it. */
  leave(page: PackedPage): void {
    page.decoderLane.release();
    page.mtpLane?.release();
    this.pages--;
    this.freeLanes.push(page.lane);
    this.freeLanes.sort((a, b) => a - b);
    this.laneWaiters.shift()?.();
    this.runWhenAllWait();
  }

  /** @internal PackedPage's: a pass to run with the others'. */
  submit(request: Omit<Waiting, 'seq' | 'resolve' | 'reject'>): Promise<PassOutput> {
    return new Promise<PassOutput>((resolve, reject) => {
      this.waiting.push({ ...request, seq: this.seq++, resolve, reject });
      this.runWhenAllWait();
    });
  }

  /**
   * Runs a packed pass once every page in flight waits on one and no free lane waits for a page on
   * its way: the graph most pages wait on, the longest-waiting at a tie, with at most one prompt.
   */
  private runWhenAllWait(): void {
    if (this.running || this.waiting.length === 0 || this.waiting.length < this.pages) return;
    if (this.holding) return;
    const count = (graph: Graph) => this.waiting.filter((w) => w.graph === graph).length;
    const oldest = this.waiting.reduce((a, b) => (b.seq < a.seq ? b : a));
    const graph: Graph = count('decoder') === count('mtp') ? oldest.graph : count('decoder') > count('mtp') ? 'decoder' : 'mtp';
    const prompts = this.waiting.filter((w) => w.graph === graph && w.embeds.length / this.runner.hidden > STEP_ROWS).sort((a, b) => a.seq - b.seq);
    const later = new Set(prompts.slice(1));
    const batch = this.waiting.filter((w) => w.graph === graph && !later.has(w));
    this.waiting.splice(0, this.waiting.length, ...this.waiting.filter((w) => w.graph !== graph || later.has(w)));
    this.running = true;
    void this.runPacked(graph, batch);
  }

  private async runPacked(graph: Graph, batch: readonly Waiting[]): Promise<void> {
    const pool = graph === 'decoder' ? this.decoderPool : this.mtpPool;
    const started = performance.now();
    let outs: PassOutput[] | undefined;
    let failure: unknown;
    try {
      if (!pool) throw new Error('the package has no draft head');
      outs = await this.runner.packed(graph, pool, batch);
    } catch (error) {
      failure = error;
    }
    const ms = performance.now() - started;
    const rows = batch.reduce((sum, w) => sum + w.embeds.length / this.runner.hidden, 0);
    batch.forEach((w, i) => {
      w.page.runMs += ms;
      if (graph === 'decoder') w.page.notePass(batch.length, rows);
      const out = outs?.[i];
      if (out) w.resolve(out);
      else w.reject(failure);
    });
    this.running = false;
    this.runWhenAllWait();
  }
}

/** A page's model while it decodes with others: its passes go through the packer, the rest to the runner. */
export class PackedPage implements DraftingModel {
  runMs = 0;
  private prefilled = false;
  private passes = 0;
  private pagesSum = 0;
  private mostPages = 0;
  private rowsSum = 0;

  constructor(
    private readonly packer: PassPacker,
    private readonly runner: ModelRunner,
    readonly lane: number,
    readonly decoderLane: LaneCache,
    readonly mtpLane: LaneCache | null,
  ) {}

  get vocab(): number {
    return this.runner.vocab;
  }

  get hidden(): number {
    return this.runner.hidden;
  }

  get stats(): PackingStats {
    const passes = this.passes;
    return { passes, mostPages: this.mostPages, meanPages: passes ? this.pagesSum / passes : 0, meanRows: passes ? this.rowsSum / passes : 0 };
  }

  /** @internal The packer's: one decoder pass shared with `pages - 1` others, `rows` rows in all (the page's prefill is not counted). */
  notePass(pages: number, rows: number): void {
    if (!this.prefilled) {
      this.prefilled = true;
      return;
    }
    this.passes++;
    this.pagesSum += pages;
    this.mostPages = Math.max(this.mostPages, pages);
    this.rowsSum += rows;
  }

  /** The page's lane of the packed decoder cache (emptied: a page starts from its prompt). */
  decoderCache(_capacity: number): DecoderCache {
    return this.decoderLane;
  }

  mtpCache(_capacity: number): MtpCache {
    if (!this.mtpLane) throw new Error('the package has no draft head');
    return this.mtpLane;
  }

  decode(cache: DecoderCache, embeds: Rows, numLogits: number): Promise<PassOutput> {
    return this.packer.submit({ graph: 'decoder', page: this, cache: this.own(cache), embeds: host(embeds), logits: numLogits });
  }

  mtp(cache: MtpCache, embeds: Rows, previousHidden: Rows): Promise<PassOutput> {
    return this.packer.submit({ graph: 'mtp', page: this, cache: this.own(cache), embeds: host(embeds), previousHidden: host(previousHidden), logits: 1 });
  }

  embedTokens(ids: readonly number[]): Promise<Rows> {
    return this.runner.embedTokens(ids);
  }

  chooseTokens(logits: PassLogits, bans: readonly ReadonlySet<number>[], always?: ReadonlySet<number>): Promise<number[]> {
    return this.runner.chooseTokens(logits, bans, always);
  }

  sliceRows(rows: Rows, from: number, to: number): Promise<Rows> {
    return this.runner.sliceRows(rows, from, to);
  }

  joinRows(a: Rows, b: Rows): Promise<Rows> {
    return this.runner.joinRows(a, b);
  }

  release(...values: readonly (Rows | PassLogits)[]): void {
    this.runner.release(...values);
  }

  /** Frees the page's lane for the next page. */
  leave(): void {
    this.packer.leave(this);
  }

  private own(cache: DecoderCache): LaneCache {
    if (!(cache instanceof LaneCache) || (cache !== this.decoderLane && cache !== this.mtpLane)) throw new Error("a packed page's passes go over its own lanes");
    return cache;
  }
}

function host(rows: Rows): Float32Array {
  if (isTensor(rows)) throw new Error('several pages decode together on the host only');
  return rows;
}
