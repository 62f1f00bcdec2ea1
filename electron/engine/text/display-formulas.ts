/**
 * Display formulas of TeX-made pages, rebuilt as LaTeX (`$$...$$`). A display formula is a cluster
 * of runs set apart from the prose (nothing within an em and a half beside it on its rows) that
 * has glyphs of TeX's math fonts and no words other than operator names. Prose lines with inline
 * math are clusters with words, and stay text.
 */

import { unionBox, type Box, type Rule, type TextRun } from '../layout/geometry.js';
import { extensionDepth, isMathOnlyFont, isOperatorName, mathFontClass } from './math-glyphs.js';
import { formulaLatex, glyphsOf, isSingleRow } from './math-layout.js';

export interface DisplayFormula {
  box: Box;
  /** Indices into the `runs` given to findDisplayFormulas of the runs the formula took. */
  runIndices: number[];
  markdown: string;
}

/** Runs closer than this many ems side by side on overlapping rows belong to one cluster. */
const CLUSTER_GAP_EM = 1.5;
/** An equation number at the margin: `(3)`, `(2a)`, `(A.1)`. */
const EQUATION_NUMBER = /^\((?:[A-Z]\.)?\d{1,3}[a-z]?\)$/;
/** A cluster with fewer visible characters is a stray symbol, not a formula. */
const MIN_FORMULA_CHARS = 3;

type PlacedRun = TextRun & { baseline: number };

function isPlaced(run: TextRun): run is PlacedRun {
  return run.baseline !== undefined;
}

export function findDisplayFormulas(runs: readonly TextRun[], rules: readonly Rule[]): DisplayFormula[] {
  const candidates = runs.map((_, i) => i).filter((i) => isPlaced(runs[i]!));
  // Most pages have no math fonts at all: nothing to cluster.
  if (!candidates.some((i) => isMathOnlyFont(mathFontClass(runs[i]!.fontName)))) return [];
  const all = clusters(runs, candidates, rules);
  const found: { cluster: number[]; box: Box; latex: string; number?: number[] }[] = [];
  for (const cluster of all) {
    const members = cluster.map((i) => runs[i] as PlacedRun);
    const box = unionBox(members);
    const inside = rules.filter((r) => r.orientation === 'horizontal' && r.x0 >= box.x0 - 2 && r.x1 <= box.x1 + 2 && r.y0 >= box.y0 - 2 && r.y1 <= box.y1 + 2);
    if (!isFormula(members, inside.length > 0)) continue;
    const glyphs = members.flatMap(glyphsOf);
    // A matrix or an aligned array stays text: read as one row its columns would interleave.
    if (!isSingleRow(glyphs, inside)) continue;
    const latex = formulaLatex(glyphs, inside);
    if (latex) found.push({ cluster, box: unionBox([box, ...inside]), latex });
  }
  // An equation's number, set at the margin on its row, belongs to the nearest formula to its left.
  for (const number of all.filter((cluster) => EQUATION_NUMBER.test(cluster.map((i) => runs[i]!.text).join('').replace(/\s/g, '')))) {
    const numberBox = unionBox(number.map((i) => runs[i]!));
    const y = (numberBox.y0 + numberBox.y1) / 2;
    const left = found.filter((f) => f.box.x1 < numberBox.x0 && y > f.box.y0 && y < f.box.y1).sort((a, b) => b.box.x1 - a.box.x1)[0];
    if (left && !left.number) left.number = number;
  }
  // The number is taken with its formula and dropped: the page's numbering is no part of the
  // formula, and a `\tag` is drawn over the formula's last symbols where the display is no wider
  // than the formula (olmOCR-Bench's rendering), so a tagged formula stops matching its source.
  return found.map(({ cluster, box, latex, number }) => {
    const taken = number ? [...cluster, ...number] : cluster;
    return { box: unionBox([box, ...taken.map((i) => runs[i]!)]), runIndices: taken, markdown: `$$\n${latex}\n$$` };
  });
}

/** Runs joined when their rows overlap and they are close side by side, or share a rule (union-find). */
function clusters(runs: readonly TextRun[], indices: readonly number[], rules: readonly Rule[]): number[][] {
  const parent = new Map<number, number>(indices.map((i) => [i, i]));
  const find = (i: number): number => {
    let root = i;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(i, root);
    return root;
  };
  const boxes = new Map(indices.map((i) => [i, inkBox(runs[i] as PlacedRun)]));
  const byTop = [...indices].sort((a, b) => boxes.get(a)!.y0 - boxes.get(b)!.y0);
  for (let p = 0; p < byTop.length; p++) {
    const a = boxes.get(byTop[p]!)!;
    for (let q = p + 1; q < byTop.length; q++) {
      const b = boxes.get(byTop[q]!)!;
      if (b.y0 >= a.y1) break;
      const gap = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
      if (gap <= CLUSTER_GAP_EM * Math.max(a.fontSize, b.fontSize)) parent.set(find(byTop[p]!), find(byTop[q]!));
    }
  }
  // A fraction's rule holds its numerator and denominator together (they may not touch the row).
  for (const rule of rules) {
    if (rule.orientation !== 'horizontal') continue;
    const y = (rule.y0 + rule.y1) / 2;
    const held = indices.filter((i) => {
      const box = boxes.get(i)!;
      const x = (box.x0 + box.x1) / 2;
      const distance = Math.max(box.y0 - y, y - box.y1, 0);
      return x >= rule.x0 && x <= rule.x1 && distance < 0.4 * box.fontSize;
    });
    for (const i of held.slice(1)) parent.set(find(i), find(held[0]!));
  }
  const groups = new Map<number, number[]>();
  for (const i of indices) {
    const root = find(i);
    const group = groups.get(root) ?? [];
    group.push(i);
    groups.set(root, group);
  }
  return [...groups.values()];
}

/**
 * Where a run's ink is. The extension font hangs its big operators, radicals and delimiters from
 * the baseline, so their ink (and the limits set close over and under it) lies below it.
 */
function inkBox(run: PlacedRun): Box & { fontSize: number } {
  if (mathFontClass(run.fontName) !== 'extension') return run;
  const depth = extensionDepth(run.text.trim());
  return { x0: run.x0, x1: run.x1, y0: run.baseline - 0.4 * run.fontSize, y1: run.baseline + (depth + 0.3) * run.fontSize, fontSize: run.fontSize };
}

/**
 * Math fonts and no prose, with a variable, a big operator or a fraction rule: a table cell such as
 * `85.3 ± 0.2` has a symbol-font glyph too, but is a figure, not a formula.
 */
function isFormula(runs: readonly PlacedRun[], hasRule: boolean): boolean {
  let mathGlyphs = 0;
  let chars = 0;
  for (const run of runs) {
    // The text font's glyphs read as TeX's roman: digits, brackets and operator names, never words.
    const own = mathFontClass(run.fontName);
    const fontClass = own === 'other' ? 'roman' : own;
    const visible = run.text.replace(/\s/g, '').length;
    chars += visible;
    if (fontClass === 'italic' || fontClass === 'extension' || fontClass === 'blackboard') mathGlyphs += visible;
    // Words in a text font are prose, unless they are operator names (sin, log, max).
    if (fontClass === 'roman') for (const word of run.text.match(/\p{L}{2,}/gu) ?? []) if (!isOperatorName(word) && !isShortName(word)) return false;
  }
  return (mathGlyphs > 0 || hasRule) && chars >= MIN_FORMULA_CHARS;
}

/** `Var`, `Cov`, `diag`, `tr`: short upright names authors declare as operators. */
function isShortName(word: string): boolean {
  return word.length <= 4 && /^\p{Lu}?\p{Ll}+$/u.test(word) && !COMMON_WORDS.has(word.toLowerCase());
}

const COMMON_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'if', 'for', 'of', 'in', 'on', 'to', 'is', 'are', 'as', 'at', 'be', 'by', 'with', 'when', 'then', 'else', 'all', 'any', 'some', 'where', 'so', 'that', 'this', 'it', 'we', 'not', 'but']);
