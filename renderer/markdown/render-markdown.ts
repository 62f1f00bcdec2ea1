/**
 * A page's Markdown as HTML for the preview. The Markdown came from an untrusted PDF or a model
 * reading one, so raw HTML goes through the export's sanitise schema before anything reaches the
 * DOM; KaTeX runs after sanitising (its own markup would not pass the schema) and renders formula
 * source as text. A formula KaTeX cannot parse comes out as its source in a `.katex-error` span.
 */

import rehypeKatex from 'rehype-katex';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { exportSanitizeSchema } from '../../shared/export/html-sanitize-schema.js';
import { dollarMath } from '../../shared/math-delimiters.js';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, exportSanitizeSchema)
  // MathML alone would do for screen readers, but HTML output keeps layout identical across browsers
  .use(rehypeKatex, { output: 'html', trust: false })
  .use(rehypeStringify)
  .freeze();

/** Sanitised HTML for one piece of Markdown; never throws on any input. */
export function renderMarkdown(markdown: string): string {
  if (markdown.trim() === '') return '';
  try {
    // the models write \(..\) and \[..\]; the preview shows them as the export will
    return String(processor.processSync(dollarMath(markdown)));
  } catch (error) {
    // a parser bug must cost one preview, not the window: show the source, escaped
    const reason = error instanceof Error ? error.message : String(error);
    return `<pre class="render-failed" title="${escapeHtml(reason)}">${escapeHtml(markdown)}</pre>`;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
