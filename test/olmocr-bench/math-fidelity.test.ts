/**
 * The math rule against the rendering it imitates: each formula rendered in Chromium the way
 * olmOCR-Bench's scorer renders it (olmocr/bench/katex/render.py: KaTeX in a page at 24 px, display
 * mode, its CSS added without its fonts), the innermost spans with text read with their boxes, and
 * the verdict reached on those boxes compared with the one `folio bench` reaches on its own layout
 * (shared/olmocr-bench/math-layout.ts), pair by pair.
 */

import path from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFormula, renderFormula } from '../../shared/olmocr-bench/math.js';
import { formulaGlyphs, glyphsFoundIn, type GlyphBox } from '../../shared/olmocr-bench/math-layout.js';
import { missingPrograms, needs, PROGRAMS } from '../environment.js';
import { MATH_PAIRS } from './math-pairs.js';

const CHROMIUM = '/usr/bin/chromium';
const KATEX = path.resolve(import.meta.dirname, '../../node_modules/katex/dist');
/** olmOCR's page: 24 px, and `.katex` sets 1.21 em. */
const EM_PX = 24 * 1.21;

let browser: Browser | undefined;
let page: Page;

/** The boxes olmOCR reads: innermost spans with text, each character a slice of its span, zero-width spaces out. */
async function chromiumGlyphs(latex: string): Promise<GlyphBox[] | undefined> {
  const spans = await page.evaluate((formula) => {
    const container = document.getElementById('equation-container')!;
    try {
      (window as unknown as { katex: { render(f: string, e: HTMLElement, o: object): void } }).katex.render(formula, container, { displayMode: true, throwOnError: true });
    } catch {
      return undefined;
    }
    return Array.from(document.querySelectorAll('span'))
      .filter((span) => span.children.length === 0 && /\S/.test(span.textContent ?? ''))
      .map((span): { text: string; x: number; y: number; width: number; height: number } => {
        const rect = span.getBoundingClientRect();
        return { text: (span.textContent ?? '').trim(), x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      });
  }, latex);
  return spans
    ?.filter((span) => span.text !== '\u200b')
    .flatMap((span) => Array.from(span.text).map((text, i, chars) => ({ text, x: (span.x + ((i + 0.5) * span.width) / chars.length) / EM_PX, y: (span.y + span.height / 2) / EM_PX })));
}

describe('the math rule against Chromium rendering KaTeX as olmOCR does', needs(PROGRAMS, missingPrograms({ [CHROMIUM]: 'chromium' })), () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 800, height: 400 } });
    await page.setContent(
      '<!DOCTYPE html><html><head><style>body{display:flex;justify-content:center;align-items:center;height:100vh;margin:0}#equation-container{padding:0;font-size:24px}</style></head><body><div id="equation-container"></div></body></html>',
    );
    // as olmOCR adds them: the stylesheet's text, so its relative font URLs load nothing
    await page.addStyleTag({ path: path.join(KATEX, 'katex.min.css') });
    await page.addScriptTag({ path: path.join(KATEX, 'katex.min.js') });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('places every symbol where Chromium does, rows within a pixel', async () => {
    for (const latex of ['\\frac{a+b}{c}', 'x_i^2', '\\sum_{i=1}^{n} x_i', '\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}', '\\hat{x} + \\sqrt[3]{y}']) {
      const real = (await chromiumGlyphs(latex))!;
      const ours = formulaGlyphs(latex)!;
      expect(ours.map((g) => g.text), latex).toEqual(real.map((g) => g.text));
      // compared from the first symbol; rows exactly, columns as far as the fallback font's widths allow
      const dy = real.map((g, i) => (g.y - real[0]!.y - (ours[i]!.y - ours[0]!.y)) * EM_PX);
      expect(Math.max(...dy.map(Math.abs)), latex).toBeLessThan(1.6);
    }
  }, 60_000);

  it('reaches the verdict reached on Chromium\'s boxes for each pair', async () => {
    const disagreements: string[] = [];
    for (const [reference, hypothesis] of MATH_PAIRS) {
      const rendered = renderFormula(reference)!;
      const ours = findFormula(reference, rendered, `$$${hypothesis}$$`).passed;
      const [real, realHypothesis] = [await chromiumGlyphs(reference), await chromiumGlyphs(hypothesis)];
      const other = renderFormula(hypothesis);
      const theirs = hypothesis === reference || (other !== undefined && (other.mathml.includes(rendered.mathml) || glyphsFoundIn(real!, realHypothesis!)));
      if (ours !== theirs) disagreements.push(`${reference} | ${hypothesis}: folio ${ours}, Chromium ${theirs}`);
    }
    expect(disagreements).toEqual([]);
  }, 120_000);
});
