/**
 * The vision encoder beside the decoding: whether it runs on its own thread, how many pages may
 * have their vision done ahead of a free decoding lane, and how the cores are split. A page ahead
 * holds its prompt's rows (its vision features laid into the embeddings) until a lane frees; the
 * lanes' caches and the encoder's own session come first out of the memory budget.
 */

/** The share of the memory free at the start that pages ahead, the lanes' caches and the encoder's session may take. */
export const MEMORY_SHARE = 0.5;

export interface VisionBudget {
  /** Memory free now where the vision features and the caches live (the host's RAM on the CPU). */
  freeBytes: number;
  /** Pages decoding together. */
  lanes: number;
  /** The most cache bytes one page can hold: cache bytes per row times the rows a page can reach. */
  laneBytes: number;
  /** What a page ahead holds while it waits for a lane: its prompt's rows, the vision features among them. */
  pageBytes: number;
  /** The vision encoder's session on its thread. */
  sessionBytes: number;
}

export interface VisionPlan {
  onThread: boolean;
  /** Pages whose vision may be done while every lane is taken; at most one per lane. */
  ahead: number;
  /** Why the encoder does not run ahead, or not on its thread; empty when it does. */
  why: string;
}

const GB = 1024 ** 3;

/** The encoder's place and how far it runs ahead, within `MEMORY_SHARE` of the free memory. */
export function visionPlan(budget: VisionBudget): VisionPlan {
  const share = budget.freeBytes * MEMORY_SHARE;
  const fixed = budget.sessionBytes + budget.lanes * budget.laneBytes;
  const said = `${(share / GB).toFixed(1)} GB (half the free memory) against ${(fixed / GB).toFixed(1)} GB for the decoding caches and the vision session`;
  if (share < fixed) return { onThread: false, ahead: 0, why: `vision on the decoding thread: ${said}` };
  const ahead = Math.min(budget.lanes, Math.floor((share - fixed) / Math.max(1, budget.pageBytes)));
  return { onThread: true, ahead, why: ahead ? '' : `no page's vision ahead of a free lane: ${said}, no room for a page's prompt` };
}

/**
 * Intra-op threads for the vision encoder's session beside a decoder with `decodeThreads` (undefined:
 * ONNX Runtime's default, all cores): the cores the decoder leaves, or half of them when it takes
 * all, never less than one, so that the two do not oversubscribe the cores.
 */
export function visionThreadCount(cores: number, decodeThreads: number | undefined): number {
  const decoder = decodeThreads ?? cores;
  return Math.max(1, decoder < cores ? cores - decoder : Math.floor(cores / 2));
}

/** Time during which at least one page decoded: what a page's vision, running meanwhile, overlapped. */
export class DecodingClock {
  private pages = 0;
  private since = 0;
  private total = 0;

  constructor(private readonly time: () => number = () => performance.now()) {}

  start(): void {
    if (this.pages++ === 0) this.since = this.time();
  }

  stop(): void {
    if (--this.pages === 0) this.total += this.time() - this.since;
  }

  /** Whether a page decodes now. */
  get active(): boolean {
    return this.pages > 0;
  }

  /** Milliseconds with a page decoding, up to now. */
  now(): number {
    return this.total + (this.pages > 0 ? this.time() - this.since : 0);
  }
}
