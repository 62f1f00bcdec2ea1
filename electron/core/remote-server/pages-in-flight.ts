/**
 * How many pages the remote engine renders ahead of its requests: the engine host sizes its window
 * by it, and the CLI keeps that many pages asked for so the window stays full.
 */

/** Pages rendered ahead of the requests, so a freed request slot never waits for pdf.js. */
export function pagesInFlightFor(concurrency: number): number {
  return concurrency + Math.max(2, Math.ceil(concurrency / 4));
}
