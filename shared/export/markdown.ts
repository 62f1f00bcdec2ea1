/** The Markdown export: one document made of its pages' Markdown. */

import { dollarMath } from '../math-delimiters.js';
import { rewriteImageLinks, type ImageResolver } from './image-links.js';

/**
 * Joins pages in page order with one blank line. Page markers are off by default: page boundaries
 * usually fall mid-paragraph, so markers would be noise, and readers who need pages use the JSON
 * export or `--split-pages`. Math is written with dollars, which Markdown tools understand.
 */
export function documentMarkdown(
  pages: readonly { page: number; markdown: string }[],
  options: { resolveImage: ImageResolver; pageMarkers?: boolean },
): string {
  const parts = [...pages]
    .sort((a, b) => a.page - b.page)
    .map((page) => ({ page: page.page, markdown: dollarMath(rewriteImageLinks(page.markdown, page.page, options.resolveImage)).trim() }))
    .filter((part) => part.markdown !== '')
    .map((part) => (options.pageMarkers ? `<!-- page ${part.page} -->\n\n${part.markdown}` : part.markdown));
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}
