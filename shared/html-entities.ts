/**
 * HTML text read back: character references decoded with the `entities` package's tables, the full
 * HTML list a browser reads; the escaping (html-escape.ts) is given here too for those that do both.
 */

import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';

export { escapeHtmlAttribute, escapeHtmlText } from './html-escape.js';

/** Text content with its character references (`&lt;`, `&#x61;`, `&eacute;`) read as a browser reads them. */
export function decodeHtmlText(text: string): string {
  return decodeHTML(text);
}

/**
 * An attribute value read as a browser reads it: as text, except that a legacy reference without
 * its `;` followed by `=` or a letter or digit stays as written (`?a=1&copy=2` keeps `&copy`).
 */
export function decodeHtmlAttribute(value: string): string {
  return decodeHTMLAttribute(value);
}
