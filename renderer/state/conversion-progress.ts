/**
 * How far a document's conversion has got, how fast pages finish and how long the rest will take.
 * The rate comes from the pages finished in this run only (a resumed document's earlier pages say
 * nothing about today's speed) and from the most recent of them, so it follows a change of engine.
 */

import type { WorkspaceDocument } from '../../shared/workspace.js';

/** The pages finished since the run began: when it began, and when each finished (ms). */
export interface RunTiming {
  startedAt: number;
  finishedAt: number[];
  /** What the engine does before the next page can start (opening the model), while it does. */
  preparing?: string;
}

export interface ConversionProgress {
  total: number;
  done: number;
  failed: number;
  /** Queued or converting. */
  remaining: number;
  /** 0..1 of pages that are settled (done or failed). */
  fraction: number;
  /** null until a page of this run has finished. */
  pagesPerSecond: number | null;
  secondsLeft: number | null;
}

/** The rate follows the last pages finished, this many at most. */
const RATE_WINDOW = 20;

export function conversionProgress(document: WorkspaceDocument, run: RunTiming | undefined, now: number): ConversionProgress {
  let done = 0;
  let failed = 0;
  let remaining = 0;
  for (const page of document.pages) {
    if (page.state === 'done') done++;
    else if (page.state === 'failed') failed++;
    else if (page.state === 'queued' || page.state === 'converting') remaining++;
  }
  const total = document.pages.length;
  const fraction = total === 0 ? 0 : (done + failed) / total;
  const pagesPerSecond = run ? rate(run, now) : null;
  const secondsLeft = pagesPerSecond && remaining > 0 ? remaining / pagesPerSecond : remaining === 0 ? 0 : null;
  return { total, done, failed, remaining, fraction, pagesPerSecond, secondsLeft };
}

function rate(run: RunTiming, now: number): number | null {
  const count = run.finishedAt.length;
  if (count === 0) return null;
  const recent = run.finishedAt.slice(-RATE_WINDOW);
  // the window opens where the page before it finished, or where the run began
  const opened = count > RATE_WINDOW ? run.finishedAt[count - RATE_WINDOW - 1]! : run.startedAt;
  // a page still running counts against the rate once it takes longer than the average
  const closed = Math.max(recent.at(-1)!, Math.min(now, recent.at(-1)! + (recent.at(-1)! - opened) / recent.length));
  const seconds = Math.max(closed - opened, 1) / 1000;
  return recent.length / seconds;
}

/** "42 s", "3 min 5 s", "1 h 2 min": the time left, in the precision a person needs. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** "0.42 pages/s", "12 pages/s": two significant figures. */
export function formatRate(pagesPerSecond: number): string {
  return `${pagesPerSecond >= 10 ? Math.round(pagesPerSecond) : pagesPerSecond.toPrecision(2)} pages/s`;
}
