/**
 * The one Markdown-to-HTML pipeline, for the app's preview and the HTML export alike. The Markdown
 * came from an untrusted PDF or a model reading one, so raw HTML (the models' tables) goes through
 * the sanitise schema, then through html-safety.ts (table spans bounded, remote images and links
 * made inert). KaTeX runs after sanitising: its own markup (inline styles, MathML) would not
 * pass the schema, and it renders formula source as text, so nothing a document wrote reaches the
 * page unchecked. rehype-katex never throws: a formula KaTeX cannot parse comes out as its source,
 * marked as an error. `trust` stays off so `\href` and friends cannot make links.
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
import { KATEX_OPTIONS } from '../katex-quiet.js';
import { rehypeExportSafety } from './html-safety.js';
import { exportSanitizeSchema } from './html-sanitize-schema.js';

/** `html` for a screen (same layout in every browser); `htmlAndMathml` for files read anywhere. */
export function markdownToHtml(mathOutput: 'html' | 'htmlAndMathml') {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkMath)
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypeRaw)
    .use(rehypeSanitize, exportSanitizeSchema)
    .use(rehypeExportSafety)
    .use(rehypeKatex, { ...KATEX_OPTIONS, output: mathOutput })
    .use(rehypeStringify)
    .freeze();
}
