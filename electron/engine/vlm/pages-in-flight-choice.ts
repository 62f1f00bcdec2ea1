/**
 * `--pages-in-flight auto`: how many pages to decode in the same decoder passes, from what a packed
 * pass of 1, 2, 4 and 8 pages' rows measured on the device (packed-pass-costs.ts), the bytes a page's
 * cache holds against the memory free, and the pages the document has. Pure, so the choice can be
 * checked on figures alone.
 */

/** One packed decoder pass of `pages` pages, one row each: its least time, milliseconds. */
export interface PackedPassCost {
  pages: number;
  ms: number;
}

export interface InFlightLimits {
  /** Bytes one page's share of the packed caches holds at its longest (decoder and draft head). */
  bytesPerPage: number;
  /** Memory free for those caches now (after the package's sessions are open). */
  freeBytes: number;
  /** Pages of the document being converted; undefined: not known. */
  documentPages?: number;
}

export interface InFlightChoice {
  pages: number;
  /** What was measured and what bounded the choice, for each page's `reason`. */
  reason: string;
}

/**
 * A page more per pass must cut the time per page row by at least this share to be worth it: every
 * page in flight also waits on the others' vision and prefill, and on a shared machine timings wobble
 * by a few percent (packed passes of a real-width package: 10.4, 6.3, 5.4, 5.2 ms a row at 1, 2, 4, 8).
 */
export const MIN_GAIN = 0.1;

/** The share of free memory the packed caches may take: the vision encoder, pages' images and the OS need the rest. */
export const MEMORY_SHARE = 0.5;

/**
 * The most pages whose time per row improves by `MIN_GAIN` on the best smaller count, then no more
 * than memory holds and the document has. Costs must include one page alone; `measured` (when and
 * how long) is added to the reason.
 */
export function choosePagesInFlight(costs: readonly PackedPassCost[], limits: InFlightLimits, measured?: string): InFlightChoice {
  const sorted = [...costs].filter((cost) => cost.ms > 0 && Number.isFinite(cost.ms)).sort((a, b) => a.pages - b.pages);
  const alone = sorted[0];
  if (!alone || alone.pages !== 1) throw new Error('pages in flight: a pass of one page was not measured');
  const perRow = (cost: PackedPassCost) => cost.ms / cost.pages;
  // not stopped at the first count that does not pay: one pass slowed by a neighbour must not hide a larger count that does
  let best = alone;
  for (const next of sorted.slice(1)) if (perRow(next) <= perRow(best) * (1 - MIN_GAIN)) best = next;
  const notWorth = sorted.filter((cost) => cost.pages > best.pages).map((cost) => cost.pages);
  const fits = limits.bytesPerPage > 0 ? Math.max(1, Math.floor((limits.freeBytes * MEMORY_SHARE) / limits.bytesPerPage)) : Number.POSITIVE_INFINITY;
  const pages = Math.max(1, Math.min(best.pages, fits, limits.documentPages ?? Number.POSITIVE_INFINITY));
  const timings = sorted.map((cost) => `${formatMs(perRow(cost))} at ${cost.pages}`).join(', ');
  const bounds = [`ms a page row in a pass: ${timings}`];
  if (notWorth.length) bounds.push(`${notWorth.join(' or ')} pages gain under ${Math.round(MIN_GAIN * 100)}% a row on ${best.pages}`);
  if (fits < best.pages) bounds.push(`memory for ${fits} (${gigabytes(limits.bytesPerPage)} a page, half of ${gigabytes(limits.freeBytes)} free)`);
  if (limits.documentPages !== undefined && limits.documentPages < Math.min(best.pages, fits)) bounds.push(`the document has ${limits.documentPages}`);
  if (measured) bounds.push(measured);
  return { pages, reason: `auto put ${pages} page${pages === 1 ? '' : 's'} in flight (${bounds.join('; ')})` };
}

/** Why `auto` puts one page in flight where pages cannot share passes at all. */
export function oneAtATime(why: string): InFlightChoice {
  return { pages: 1, reason: `auto put 1 page in flight: ${why}` };
}

function formatMs(ms: number): string {
  return ms >= 10 ? ms.toFixed(0) : ms.toFixed(ms >= 1 ? 1 : 2);
}

function gigabytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(1)} GB` : `${Math.round(bytes / 1e6)} MB`;
}
