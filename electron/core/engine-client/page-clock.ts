/**
 * When the supervisor gives up on a conversion: the oldest unfinished page has its time limit,
 * counted from its own start, or from when the conversion was sent or the page before it finished,
 * but never from before the engine was ready. While the engine prepares (a model package opening,
 * `--device auto` measuring devices) no page's clock runs; the preparation has its own limit instead.
 */

export interface Deadline {
  at: number;
  /** What runs past it: a page, or the engine's preparation (and what it was doing). */
  phase: { kind: 'page' } | { kind: 'preparing'; detail: string; limitMs: number };
}

export class PageClock {
  private progressAt: number;
  private readonly startedAt = new Map<number, number>();
  private preparing: { since: number; detail: string; limitMs: number } | undefined;

  constructor(
    private readonly pageLimitMs: number,
    sentAt: number,
  ) {
    this.progressAt = sentAt;
  }

  /** The engine began (or goes on) preparing; `limitMs` counts from its first word, not from each update. */
  preparingSince(now: number, detail: string, limitMs: number): void {
    this.preparing = { since: this.preparing?.since ?? now, detail, limitMs };
  }

  /** The engine is ready: a page that waited for it (started or not) is timed from now. */
  ready(now: number): void {
    if (!this.preparing) return;
    this.preparing = undefined;
    this.progressAt = now;
    for (const page of this.startedAt.keys()) this.startedAt.set(page, now);
  }

  started(page: number, now: number): void {
    this.startedAt.set(page, now);
  }

  finished(page: number, now: number): void {
    this.startedAt.delete(page);
    this.progressAt = now;
  }

  /** The deadline of the oldest unfinished page, `oldest`, or of the preparation under way. */
  deadline(oldest: number | undefined): Deadline {
    if (this.preparing) {
      const { since, detail, limitMs } = this.preparing;
      return { at: since + limitMs, phase: { kind: 'preparing', detail, limitMs } };
    }
    const from = (oldest === undefined ? undefined : this.startedAt.get(oldest)) ?? this.progressAt;
    return { at: from + this.pageLimitMs, phase: { kind: 'page' } };
  }
}
