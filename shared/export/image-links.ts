/**
 * Engines link images as `folio-image:<name>` because only export knows where (or whether) the
 * image files will be written; this module swaps those links for real paths, or for a note in
 * plain text where an image was not written.
 */

import { decodeHtmlAttribute, escapeHtmlAttribute, escapeHtmlText } from '../html-entities.js';
import { IMAGE_LINK_PREFIX } from '../page.js';

/** Returns where an image was written, as a relative URL path, or undefined when it was not. */
export type ImageResolver = (name: string) => string | undefined;

const MARKDOWN_IMAGE = new RegExp(String.raw`!\[([^\]]*)\]\(${IMAGE_LINK_PREFIX}([^)\s]+)\)`, 'g');
/** Engines may put images inside HTML table cells. */
const HTML_IMAGE = new RegExp(String.raw`<img\b[^>]*?\bsrc=(["'])${IMAGE_LINK_PREFIX}([^"']+)\1[^>]*>`, 'gi');
const HTML_ALT = /\balt=(["'])(.*?)\1/i;
const MARKDOWN_PUNCTUATION = /[\\`*_{}[\]()<>#+!|~&$]/g;

/**
 * Rewrites every `folio-image:` link in one page's Markdown. An image that was not written becomes
 * `(image on page 5, not exported: Chart)`, plain text that keeps its place and description, rather
 * than a link to nowhere.
 */
export function rewriteImageLinks(markdown: string, page: number, resolveImage: ImageResolver): string {
  return markdown
    .replace(MARKDOWN_IMAGE, (_match, alt: string, name: string) => {
      const path = resolveImage(name);
      return path === undefined ? notExportedNote(alt.replace(MARKDOWN_PUNCTUATION, '\\$&'), page) : `![${alt}](${markdownDestination(path)})`;
    })
    .replace(HTML_IMAGE, (tag: string, _quote: string, name: string) => {
      const path = resolveImage(name);
      if (path !== undefined) return tag.replace(`${IMAGE_LINK_PREFIX}${name}`, escapeHtmlAttribute(path));
      return notExportedNote(escapeHtmlText(decodeHtmlAttribute(HTML_ALT.exec(tag)?.[2] ?? '')), page);
    });
}

/** `alt` is untrusted text (from the PDF or a model) already escaped, so every character stays a character. */
function notExportedNote(alt: string, page: number): string {
  const description = alt.trim();
  return `(image on page ${page}, not exported${description === '' ? '' : `: ${description}`})`;
}

/** Paths with spaces or parentheses would end a bare Markdown link early; `<...>` keeps them whole. */
function markdownDestination(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, encodeURIComponent)}>` : path;
}
