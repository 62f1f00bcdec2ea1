/**
 * olmOCR-Bench's math check: the formula appears in the output between math delimiters, written
 * exactly so or written otherwise but rendering the same. "Rendering the same" is decided on KaTeX's
 * MathML: the reference's layout tree (symbols and their sub/superscript, fraction and root
 * structure; spacing and grouping braces ignored) must occur within a formula of the output, as
 * olmOCR decides on the symbols' rendered positions.
 */

import katex from 'katex';
import { ratio } from '../text-match/fuzzy-match.js';

// olmOCR's order: \(...\), \[...\], then $$...$$ and $...$ unless dollars are ignored.
const BACKSLASH_DELIMITERS: readonly RegExp[] = [/\\\((.+?)\\\)/gs, /\\\[(.+?)\\\]/gs];
const DOLLAR_DELIMITERS: readonly RegExp[] = [/\$\$(.+?)\$\$/gs, /\$(.+?)\$/gs];

/** The formulas of an output, each delimiter kind taken out before the next is looked for. */
export function formulasIn(content: string, ignoreDollarDelimited = false): string[] {
  const found: string[] = [];
  let rest = content;
  for (const pattern of ignoreDollarDelimited ? BACKSLASH_DELIMITERS : [...BACKSLASH_DELIMITERS, ...DOLLAR_DELIMITERS]) {
    for (const match of rest.matchAll(pattern)) found.push(match[1]!.trim());
    rest = rest.replace(pattern, '');
  }
  return found;
}

/** The formula's layout as a string of MathML elements, or undefined when KaTeX cannot parse it. */
export function renderedLayout(latex: string): string | undefined {
  let mathml: string;
  try {
    mathml = katex.renderToString(latex, { output: 'mathml', throwOnError: true, strict: 'ignore', displayMode: true });
  } catch {
    return undefined;
  }
  return mathml
    .replace(/<annotation\b[^>]*>[\s\S]*?<\/annotation>/g, '')
    .replace(/<\/?(?:span|math|semantics|mrow|mstyle)\b[^>]*>/g, '')
    .replace(/<mspace\b[^>]*\/?>(?:<\/mspace>)?/g, '')
    .replace(/<(\/?\w+)\b[^>]*>/g, '<$1>')
    .replace(/\s+/g, ' ')
    .trim();
}

export type MathVerdict = { passed: true } | { passed: false; detail: string };

/** Whether `reference` (already known to render) appears among the output's formulas. */
export function findFormula(reference: string, referenceLayout: string, content: string, ignoreDollarDelimited = false): MathVerdict {
  const formulas = formulasIn(content, ignoreDollarDelimited);
  if (formulas.some((formula) => formula === reference)) return { passed: true };
  // Closest first, as olmOCR orders them, so the likely match is rendered first.
  const ordered = formulas.map((f) => ({ f, score: ratio(f, reference) })).sort((a, b) => b.score - a.score);
  for (const { f } of ordered) {
    const layout = renderedLayout(f);
    if (layout !== undefined && layout.includes(referenceLayout)) return { passed: true };
  }
  if (formulas.length === 0) return { passed: false, detail: 'no formula (no $...$, $$...$$, \\(...\\) or \\[...\\]) in the output' };
  return { passed: false, detail: `none of ${formulas.length} formula(s) renders as ${reference}; closest: ${ordered[0]!.f.slice(0, 60)}` };
}
