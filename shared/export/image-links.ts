/**
 * Engines link images as `folio-image:<name>` because only export knows where (or whether) the
 * image files will be written; this module swaps those links for real paths or placeholders.
 */

import { IMAGE_LINK_PREFIX } from '../page.js';

/** Returns where an image was written, as a relative URL path, or undefined when it was not. */
export type ImageResolver = (name: string) => string | undefined;

const MARKDOWN_IMAGE = new RegExp(String.raw`!\[([^\]]*)\]\(${IMAGE_LINK_PREFIX}([^)\s]+)\)`, 'g');
/** Engines may put images inside HTML table cells. */
const HTML_IMAGE_SRC = new RegExp(String.raw`(<img\b[^>]*?\bsrc=)(["'])${IMAGE_LINK_PREFIX}([^"']+)\2`, 'gi');

/** Rewrites every `folio-image:` link in one page's Markdown. */
export function rewriteImageLinks(markdown: string, page: number, resolveImage: ImageResolver): string {
  return markdown
    .replace(MARKDOWN_IMAGE, (_match, alt: string, name: string) => {
      const path = resolveImage(name);
      return path === undefined
        ? `![${placeholderAlt(alt, page)}](#)`
        : `![${alt}](${markdownDestination(path)})`;
    })
    .replace(HTML_IMAGE_SRC, (_match, start: string, quote: string, name: string) => {
      const path = resolveImage(name);
      return `${start}${quote}${path === undefined ? '#' : escapeAttribute(path)}${quote}`;
    });
}

function placeholderAlt(alt: string, page: number): string {
  const description = alt.trim() === '' ? 'image' : alt.trim();
  return `${description} (page ${page}, not exported)`;
}

/** Paths with spaces or parentheses would end a bare Markdown link early; `<...>` keeps them whole. */
function markdownDestination(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
