/**
 * HTML text written safely: the one place that escapes untrusted text into HTML (and the XML of
 * Word's math, which needs the same characters escaped). Apart from the decoder (html-entities.ts),
 * so that what only writes HTML, as the engine host's tables do, loads no entity tables.
 */

/** Text for an element's content: `&`, `<` and `>` are all that could start markup there. */
export function escapeHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A value for a quoted attribute, in either quote: the text escapes and both quote marks. */
export function escapeHtmlAttribute(value: string): string {
  return escapeHtmlText(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
