/**
 * A page's Markdown as HTML for the preview, through the export's own sanitising pipeline. A formula
 * KaTeX cannot parse comes out as its source in a `.katex-error` span.
 */

import { markdownToHtml } from '../../shared/export/markdown-html.js';
import { escapeHtmlAttribute, escapeHtmlText } from '../../shared/html-entities.js';
import { dollarMath } from '../../shared/math-delimiters.js';

const processor = markdownToHtml('html');

/** Sanitised HTML for one piece of Markdown; never throws on any input. */
export function renderMarkdown(markdown: string): string {
  if (markdown.trim() === '') return '';
  try {
    // the models write \(..\) and \[..\]; the preview shows them as the export will
    return String(processor.processSync(dollarMath(markdown)));
  } catch (error) {
    // a parser bug must cost one preview, not the window: show the source, escaped
    const reason = error instanceof Error ? error.message : String(error);
    return `<pre class="render-failed" title="${escapeHtmlAttribute(reason)}">${escapeHtmlText(markdown)}</pre>`;
  }
}
