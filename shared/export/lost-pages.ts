/**
 * What stands in a document's Markdown where pages could not be converted: the file a person reads
 * must say that a page is missing and why, not only the terminal or the JSON. Consecutive pages lost
 * for the same reason (every page after a host that could not be restarted) share one line.
 */

import type { PageFailure } from '../failure.js';

/** One block quote per run of lost pages, placed at the run's first page. */
export function lostPageMarkers(failures: readonly PageFailure[]): { page: number; markdown: string }[] {
  const sorted = [...failures].sort((a, b) => a.page - b.page);
  const runs: { first: number; last: number; message: string }[] = [];
  for (const { page, failure } of sorted) {
    const run = runs.at(-1);
    if (run && run.last + 1 === page && run.message === failure.message) run.last = page;
    else runs.push({ first: page, last: page, message: failure.message });
  }
  return runs.map(({ first, last, message }) => ({
    page: first,
    markdown: `> **${first === last ? `Page ${first}` : `Pages ${first} to ${last}`} could not be converted:** ${markdownText(sentence(message))}`,
  }));
}

function sentence(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The reason as literal text: it can quote the engine's stderr, and so a hostile file's words. Every
 * character that could start Markdown or HTML is escaped; `[` becomes an entity because `\[` would
 * open display math for the export's math step.
 */
function markdownText(text: string): string {
  return text.replace(/[\\`*_<>&#|~$!{}]/g, '\\$&').replace(/\[/g, '&#91;');
}
