/**
 * olmOCR-Bench's math check: the formula appears in the output between math delimiters, written
 * exactly so, or written otherwise but rendering the same. As olmOCR decides "the same" on KaTeX's
 * rendering: the reference's MathML (structure kept: a group is a group, so `\frac{a}{+bc}` is not
 * `\frac{a+b}{c}`) is found in the hypothesis's, or failing that every rendered symbol of the
 * reference is found in the hypothesis with the same neighbours above, below and beside it
 * (math-layout.ts).
 */

import katex from 'katex';
import { KATEX_OPTIONS } from '../katex-quiet.js';
import { ratio } from '../text-match/fuzzy-match.js';
import { formulaGlyphs, glyphsFoundIn, type GlyphBox } from './math-layout.js';

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

/** A formula as KaTeX renders it: its MathML (inside `<semantics>`, annotation dropped, no whitespace) and its symbols' boxes. */
export interface RenderedFormula {
  mathml: string;
  glyphs: GlyphBox[];
}

/** The rendering, or undefined when KaTeX cannot render the formula (olmOCR skips such a hypothesis, and refuses such a reference). */
export function renderFormula(latex: string): RenderedFormula | undefined {
  let markup: string;
  try {
    markup = katex.renderToString(latex, { ...KATEX_OPTIONS, output: 'mathml', throwOnError: true, displayMode: true });
  } catch {
    return undefined;
  }
  const glyphs = formulaGlyphs(latex);
  if (!glyphs) return undefined;
  const semantics = /<semantics>([\s\S]*?)<annotation\b[\s\S]*<\/semantics>/.exec(markup)?.[1] ?? markup;
  return { mathml: semantics.replace(/\s+/g, ''), glyphs };
}

export type MathVerdict = { passed: true } | { passed: false; detail: string };

/** Whether `reference` (rendered as `rendered`) appears among the output's formulas. */
export function findFormula(reference: string, rendered: RenderedFormula, content: string, ignoreDollarDelimited = false): MathVerdict {
  const formulas = formulasIn(content, ignoreDollarDelimited);
  if (formulas.some((formula) => formula === reference)) return { passed: true };
  // Closest first, as olmOCR orders them, so the likely match is rendered first.
  const ordered = formulas.map((f) => ({ f, score: ratio(f, reference) })).sort((a, b) => b.score - a.score);
  for (const { f } of ordered) {
    const hypothesis = renderFormula(f);
    if (hypothesis && (hypothesis.mathml.includes(rendered.mathml) || glyphsFoundIn(rendered.glyphs, hypothesis.glyphs))) return { passed: true };
  }
  if (formulas.length === 0) return { passed: false, detail: 'no formula (no $...$, $$...$$, \\(...\\) or \\[...\\]) in the output' };
  return { passed: false, detail: `none of ${formulas.length} formula(s) renders as ${reference}; closest: ${ordered[0]!.f.slice(0, 60)}` };
}
