/** The Markdown export: one document made of its pages' Markdown. */

import type { PageResult } from '../page.js';
import { rewriteImageLinks, type ImageResolver } from './image-links.js';

/**
 * Joins pages in page order with one blank line and no page markers: page boundaries usually fall
 * mid-paragraph, so markers would be noise, and readers who need pages use the JSON export or
 * `--split-pages`.
 */
export function documentMarkdown(
  pages: readonly PageResult[],
  options: { resolveImage: ImageResolver },
): string {
  const parts = [...pages]
    .sort((a, b) => a.page - b.page)
    .map((page) => rewriteImageLinks(page.markdown, page.page, options.resolveImage).trim())
    .filter((markdown) => markdown !== '');
  return parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;
}
