/** The Markdown export: one document made of its pages' Markdown. */

import type { PageFailure } from '../failure.js';
import { dollarMath } from '../math-delimiters.js';
import { rewriteImageLinks, type ImageResolver } from './image-links.js';
import { lostPageMarkers } from './lost-pages.js';

/**
 * Joins pages in page order with one blank line. Page markers are off by default: page boundaries
 * usually fall mid-paragraph, so markers would be noise, and readers who need pages use the JSON
 * export or `--split-pages`. Asked for, they are visible in any Markdown viewer (and in the HTML made
 * from it): a rule between pages and a "Page N" line above each. Math is written with dollars, which
 * Markdown tools understand. Pages that could not be converted (`failures`) are marked where they would have been.
 */
export function documentMarkdown(
  pages: readonly { page: number; markdown: string }[],
  options: { resolveImage: ImageResolver; pageMarkers?: boolean; failures?: readonly PageFailure[] },
): string {
  const converted = pages
    .map((page) => ({ page: page.page, markdown: dollarMath(rewriteImageLinks(page.markdown, page.page, options.resolveImage)).trim() }))
    .filter((part) => part.markdown !== '');
  const parts = [...converted, ...lostPageMarkers(options.failures ?? [])]
    .sort((a, b) => a.page - b.page)
    .map((part, index) => (options.pageMarkers ? `${pageBreakMarkdown(part.page, index === 0)}\n\n${part.markdown}` : part.markdown));
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}

/**
 * A page's visible marker: `---` between pages (a blank line before it, so that it can never make the
 * paragraph above a heading), then "Page N" in italics; the comment lets tools find pages too.
 */
export function pageBreakMarkdown(page: number, first: boolean): string {
  return `${first ? '' : '---\n\n'}<!-- page ${page} -->\n*Page ${page}*`;
}
