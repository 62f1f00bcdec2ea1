/**
 * HTML text written safely and read back: the one place that escapes untrusted text into HTML (and
 * the XML of Word's math, which needs the same characters escaped) and decodes character
 * references. Decoding uses the `entities` package's tables, the full HTML list a browser reads.
 */

import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';

/** Text for an element's content: `&`, `<` and `>` are all that could start markup there. */
export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A value for a quoted attribute, in either quote: the text escapes and both quote marks. */
export function escapeHtmlAttribute(value: string): string {
  return escapeHtmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

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
