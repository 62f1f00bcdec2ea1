/**
 * A page's Markdown as a sanitised HTML tree with math as MathML, for the exports that are not HTML
 * (DOCX, LaTeX). It is the HTML export's pipeline (see markdown-html.ts), so the models' HTML tables
 * become real table elements, and whatever the HTML export would drop, these drop too. A formula
 * KaTeX cannot parse stays its source in a `katex-error` span whose title says why.
 */

import type { Element, ElementContent, Root } from 'hast';
import rehypeKatex from 'rehype-katex';
import rehypeRaw from 'rehype-raw';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { KATEX_OPTIONS } from '../katex-quiet.js';
import { dollarMath } from '../math-delimiters.js';
import { exportSanitizeSchema } from './html-sanitize-schema.js';

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath)
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRaw)
  .use(rehypeSanitize, exportSanitizeSchema)
  .use(rehypeKatex, { ...KATEX_OPTIONS, output: 'mathml' })
  .freeze();

export function markdownTree(markdown: string): Root {
  return processor.runSync(processor.parse(dollarMath(markdown)));
}

export function isElement(node: ElementContent | Root['children'][number], tagName?: string): node is Element {
  return node.type === 'element' && (tagName === undefined || node.tagName === tagName);
}

export function hasClass(element: Element, name: string): boolean {
  const className = element.properties['className'];
  return Array.isArray(className) && className.includes(name);
}

/** The text under a node, as a reader sees it. */
export function textOf(node: ElementContent | Root): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' || node.type === 'root') return node.children.map((child) => textOf(child as ElementContent)).join('');
  return '';
}

/** A rendered formula: the MathML element and its LaTeX source, or the source KaTeX rejected and why. */
export type Formula =
  | { kind: 'math'; math: Element; source: string; display: boolean }
  | { kind: 'error'; source: string; reason: string };

/** The formula a `katex` or `katex-error` span holds, or undefined for any other element. */
export function formulaOf(element: Element): Formula | undefined {
  if (element.tagName !== 'span') return undefined;
  if (hasClass(element, 'katex-error')) {
    const title = String(element.properties['title'] ?? 'KaTeX could not parse it');
    return { kind: 'error', source: textOf(element), reason: title.replace(/^ParseError: KaTeX parse error: /, '') };
  }
  if (!hasClass(element, 'katex')) return undefined;
  const math = element.children.find((child): child is Element => isElement(child, 'math'));
  if (!math) return undefined;
  const annotation = findElement(math, (node) => node.tagName === 'annotation');
  return { kind: 'math', math, source: annotation ? textOf(annotation) : '', display: math.properties['display'] === 'block' };
}

export function findElement(root: Element, test: (element: Element) => boolean): Element | undefined {
  for (const child of root.children) {
    if (!isElement(child)) continue;
    if (test(child)) return child;
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}
