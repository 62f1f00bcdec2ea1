/** The standalone HTML export: one file that opens offline with tables and rendered math. */

import { escapeHtmlText } from '../html-escape.js';
import { dollarMath } from '../math-delimiters.js';
import { EXPORT_STYLESHEET } from './html-style.js';
import { markdownToHtml } from './markdown-html.js';

const processor = markdownToHtml('htmlAndMathml');

/** Scripts are already gone; the policy is a second lock and keeps the file from reaching the network. */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; font-src data:; img-src 'self' file:";

export function documentHtml(markdown: string, options: { title: string; mathCss: string }): string {
  const tree = processor.runSync(processor.parse(dollarMath(markdown)));
  const body = processor.stringify(tree);
  const mathStyle = containsMath(tree) ? `<style>${options.mathCss}</style>\n` : '';
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="generator" content="Folio">
<title>${escapeHtmlText(options.title)}</title>
<style>${EXPORT_STYLESHEET}</style>
${mathStyle}</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

interface TreeNode {
  type: string;
  properties?: { className?: unknown };
  children?: readonly TreeNode[];
}

function containsMath(node: TreeNode): boolean {
  const className = node.properties?.className;
  if (Array.isArray(className) && className.includes('katex')) return true;
  return node.children?.some(containsMath) ?? false;
}
