/**
 * Display formulas of TeX-made pages, rebuilt as LaTeX (`$$...$$`). A display formula is a cluster
 * of runs set apart from the prose (nothing within an em and a half beside it on its rows) that
 * has glyphs of TeX's math fonts and no words other than operator names. Prose lines with inline
 * math are clusters with words, and stay text.
 */

import { unionBox, type Box, type Rule, type TextRun } from '../layout/geometry.js';
import { extensionDepth, glyphLatex, glyphRole, isMathOnlyFont, isProseWord, mathFontClass } from './math-glyphs.js';
import { casesLatex, formulaLatex, glyphsOf, isSingleRow, type MathGlyph } from './math-layout.js';

export interface DisplayFormula {
  box: Box;
  /** Indices into the `runs` given to findDisplayFormulas of the runs the formula took. */
  runIndices: number[];
  markdown: string;
}

/** Runs closer than this many ems side by side on overlapping rows belong to one cluster. */
const CLUSTER_GAP_EM = 1.5;
/** An equation number at the margin: `(3)`, `(2a)`, `(A.1)`. */
const EQUATION_NUMBER = /^\((?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})?[a-z]?\)$/;
/** A cluster with fewer visible characters is a stray symbol, not a formula. */
const MIN_FORMULA_CHARS = 3;

type PlacedRun = TextRun & { baseline: number };

function isPlaced(run: TextRun): run is PlacedRun {
  return run.baseline !== undefined;
}

export function findDisplayFormulas(runs: readonly TextRun[], rules: readonly Rule[]): DisplayFormula[] {
  const candidates = runs.map((_, i) => i).filter((i) => isPlaced(runs[i]!));
  // Most pages have no math fonts at all: nothing to cluster.
  if (!candidates.some((i) => isMathOnlyFont(mathFontClass(runs[i]!.fontName)) || isSymbolRun(runs[i]!))) return [];
  const all = clusters(runs, candidates, rules);
  const unicodeFonts = unicodeExtensionFonts(runs);
  const found: RowFormula[] = [];
  for (const whole of all) {
    // An aligned display (align, gather, eqnarray) is one cluster of several rows: each row is a formula.
    for (const row of formulaRows(runs, whole, rules, unicodeFonts)) {
      // An equation number set close to a narrow column's formula joins its cluster: it is no part of it.
      const number = row.filter((i) => isMarginNumber(runs, row, i));
      const cluster = row.filter((i) => !number.includes(i));
      if (cluster.length === 0) continue;
      const members = cluster.map((i) => runs[i] as PlacedRun);
      const box = unionBox(members);
      const inside = rules.filter((r) => r.orientation === 'horizontal' && r.x0 >= box.x0 - 2 && r.x1 <= box.x1 + 2 && r.y0 >= box.y0 - 2 && r.y1 <= box.y1 + 2);
      if (isFigure(members) || !isFormula(members, inside.length > 0, () => isSetApart(runs, candidates, cluster, box))) continue;
      const glyphs = members.flatMap((run) => glyphsOf(run, unicodeFonts.has(run.fontName)));
      // A matrix or an array stays text: read as one row its columns would interleave.
      const latex = isSingleRow(glyphs, inside) ? formulaLatex(glyphs, inside) : casesLatex(glyphs, inside);
      if (latex === undefined) continue;
      if (isTableCell(runs, candidates, cluster, box) || isRuledRow(box, rules, mainBaseline(members).size)) continue;
      if (latex.replace(/[.,;]/g, '').trim()) found.push({ cluster, box: unionBox([box, ...inside]), latex, ...(number.length > 0 ? { number } : {}), ...mainBaseline(members), glyphs, rules: inside });
    }
  }
  joinContinued(runs, candidates, found);
  joinAnnotations(runs, candidates, all, found);
  joinSideBySide(found);
  // An equation's number, set at the margin on its row, belongs to the nearest formula to its left.
  for (const number of all.filter((cluster) => EQUATION_NUMBER.test(cluster.map((i) => runs[i]!.text).join('').replace(/\s/g, '')))) {
    const numberBox = unionBox(number.map((i) => runs[i]!));
    const y = (numberBox.y0 + numberBox.y1) / 2;
    // Numbers stand at the right margin, or at the left one (`leqno`).
    const onRow = found.filter((f) => y > f.box.y0 && y < f.box.y1 && !f.number);
    const left = onRow.filter((f) => f.box.x1 < numberBox.x0).sort((a, b) => b.box.x1 - a.box.x1)[0];
    const right = onRow.filter((f) => f.box.x0 > numberBox.x1).sort((a, b) => a.box.x0 - b.box.x0)[0];
    const owner = left ?? right;
    if (owner) owner.number = number;
  }
  // The number is taken with its formula and dropped: the page's numbering is no part of the
  // formula, and a `\tag` is drawn over the formula's last symbols where the display is no wider
  // than the formula (olmOCR-Bench's rendering), so a tagged formula stops matching its source.
  return found.map(({ cluster, box, latex, number }) => {
    const taken = number ? [...cluster, ...number] : cluster;
    // A display formula ends its sentence with a full stop or comma that belongs to the prose.
    const formula = latex.replace(/\s*[.,;]$/, '');
    return { box: unionBox([box, ...taken.map((i) => runs[i]!)]), runIndices: taken, markdown: `$$\n${formula}\n$$` };
  });
}

/**
 * A signed or bracketed number, its decimals maybe set off by a point, comma or centred dot, its
 * groups by a thin space: what a table column aligned on the decimal point (dcolumn, siunitx) sets
 * in math mode, so that its point comes from the math italic font. A display is never a bare number.
 */
const FIGURE = /^[(−\-+±]?\d[\d.,·]*%?\)?$/u;

function isFigure(members: readonly TextRun[]): boolean {
  return FIGURE.test(members.map((run) => run.text).join('').replace(/\s/gu, ''));
}

/** How far (ems) a table's neighbouring cells stand from a cell, at most. */
const CELL_NEIGHBOUR_EM = 8;

/**
 * A short formula with words on its row both left and right of it is a table's middle cell
 * (`f ∘ g` between a command's name and "Function composition"), not a display: taken out, it
 * would leave the table a column short. So is a formula of any width with code in it, or with
 * code just left of it and a description right of it or taken into it (a manual's row:
 * `\set{(x,y)}{x > y}`, what it prints, "Set notation"). Rows are compared by baseline, as cells
 * need not align.
 */
function isTableCell(runs: readonly TextRun[], candidates: readonly number[], cluster: readonly number[], box: Box): boolean {
  const members = cluster.map((i) => runs[i] as PlacedRun);
  const { baseline, size } = mainBaseline(members);
  if (members.some(isCode)) return true;
  const own = new Set(cluster);
  const words = candidates
    .filter((i) => !own.has(i) && /\p{L}{2,}/u.test(runs[i]!.text) && Math.abs(runs[i]!.baseline! - baseline) < 0.8 * size)
    .map((i) => runs[i]!);
  const left = words.filter((run) => run.x1 <= box.x0 && box.x0 - run.x1 < CELL_NEIGHBOUR_EM * size);
  const right = words.some((run) => run.x0 >= box.x1 && run.x0 - box.x1 < CELL_NEIGHBOUR_EM * size);
  if (left.some(isCode) && (right || members.some(hasProseWord))) return true;
  if (box.x1 - box.x0 > CELL_NEIGHBOUR_EM * size) return false;
  return left.length > 0 && right;
}

/** A word of prose in the text font (a table's description taken into the cluster), not an operator name. */
function hasProseWord(run: TextRun): boolean {
  const font = mathFontClass(run.fontName);
  return (font === 'roman' || font === 'other') && (run.text.match(/\p{L}{2,}/gu) ?? []).some(isProseWord);
}

/** Monospace letters: code, which a display never sets. */
function isCode(run: TextRun): boolean {
  return run.monospace && /\p{L}/u.test(run.text);
}

/** How close (ems) a table's rules lie above and below its header row, at most. */
const RULED_ROW_GAP_EM = 1;

/**
 * A row between two horizontal rules drawn close above and below it, each reaching past both its
 * ends, with no vertical rule closing them into a box: a table's header row between its top rule
 * and its midrule (`$x$ & erf$(x)$`, set close enough to cluster), not a display. A boxed
 * formula's frame has its sides drawn.
 */
function isRuledRow(box: Box, rules: readonly Rule[], size: number): boolean {
  const gap = RULED_ROW_GAP_EM * size;
  const across = (rule: Rule) => rule.orientation === 'horizontal' && rule.x0 <= box.x0 && rule.x1 >= box.x1;
  const above = rules.filter((rule) => across(rule) && rule.y1 <= box.y0 + 1 && box.y0 - rule.y1 < gap);
  const below = rules.filter((rule) => across(rule) && rule.y0 >= box.y1 - 1 && rule.y0 - box.y1 < gap);
  if (above.length === 0 || below.length === 0) return false;
  const top = Math.max(...above.map((rule) => rule.y1));
  const bottom = Math.min(...below.map((rule) => rule.y0));
  return !rules.some((rule) => rule.orientation === 'vertical' && rule.y0 <= bottom && rule.y1 >= top && rule.x1 >= box.x0 - gap && rule.x0 <= box.x1 + gap);
}

/** A display's annotation (`&& \\text{by Lemma 2}`): a few words, this far (ems) at most right of the row's formula. */
const ANNOTATION_GAP_EM = 15;
const MAX_ANNOTATION_WORDS = 6;
/** Letters, digits, spaces and the punctuation of a reference: what an annotation may hold, written as text. */
const ANNOTATION_TEXT = /^[\p{L}\p{N} .,;:'’()-]+$/u;

/**
 * Words on a formula's baseline to its right, with no prose above or below them (a column of
 * annotations beside an aligned display, not the next column's paragraph), are the formula's
 * `\\text` and join it after a quad, where the formula stands in from the text around it.
 */
function joinAnnotations(runs: readonly TextRun[], candidates: readonly number[], all: readonly number[][], found: FoundFormula[]): void {
  const used = new Set(found.flatMap((f) => [...f.cluster, ...(f.number ?? [])]));
  const texts = all.filter((cluster) => {
    if (cluster.some((i) => used.has(i) || isMathOnlyFont(mathFontClass(runs[i]!.fontName)))) return false;
    const text = annotationText(runs, cluster);
    return ANNOTATION_TEXT.test(text) && /\p{L}{2,}/u.test(text) && text.split(' ').length <= MAX_ANNOTATION_WORDS;
  });
  const annotations = new Set(texts.flat());
  for (const cluster of texts) {
    const members = cluster.map((i) => runs[i] as PlacedRun);
    const box = unionBox(members);
    const owner = found
      .filter((f) => f.baseline !== undefined && Math.abs(members[0]!.baseline - f.baseline) < 0.1 * f.size! && box.x0 > f.box.x1 && box.x0 - f.box.x1 < ANNOTATION_GAP_EM * f.size!)
      .sort((a, b) => b.box.x1 - a.box.x1)[0];
    // A formula at the edge of what is around it is a table's cell, and the words its next cell.
    if (!owner || owner.cluster.some((i) => runs[i]!.monospace) || !isSetApart(runs, candidates, owner.cluster, owner.box)) continue;
    const size = owner.size!;
    const framing = candidates.some((i) => {
      if (used.has(i) || annotations.has(i)) return false;
      const run = runs[i]!;
      return run.x1 > box.x0 && run.x0 < box.x1 && run.y1 > box.y0 - 0.5 * size && run.y0 < box.y1 + 0.5 * size;
    });
    if (framing) continue;
    owner.cluster.push(...cluster);
    owner.box = unionBox([owner.box, box]);
    owner.latex = `${owner.latex} \\qquad \\text{${annotationText(runs, cluster)}}`;
  }
}

/** The cluster's text left to right, a space between runs that stand apart (a ligature's halves overlap). */
function annotationText(runs: readonly TextRun[], cluster: readonly number[]): string {
  const ordered = [...cluster].sort((a, b) => runs[a]!.x0 - runs[b]!.x0).map((i) => runs[i]!);
  return ordered
    .map((run, k) => (k > 0 && run.x0 - ordered[k - 1]!.x1 > 0.15 * run.fontSize ? ` ${run.text}` : run.text))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Formulas set apart by a `\quad` or `\qquad` on one baseline: one display, as the author wrote it. */
const SIDE_BY_SIDE_GAP_EM = 2.6;

interface FoundFormula {
  cluster: number[];
  box: Box;
  latex: string;
  number?: number[];
  baseline?: number;
  size?: number;
}

/** A row of a display as found, with the glyphs and rules it was read from. */
interface RowFormula extends FoundFormula {
  glyphs: MathGlyph[];
  rules: Rule[];
}

/**
 * Rows of one broken formula, whether they came as rows of one cluster or as clusters of their own
 * (the rows of `split` stand apart when neither reaches into the other), are joined into one.
 */
function joinContinued(runs: readonly TextRun[], candidates: readonly number[], found: RowFormula[]): void {
  const order = [...found].sort((a, b) => a.box.y0 - b.box.y0);
  const taken = new Set<RowFormula>();
  const annotated = (row: RowFormula) =>
    candidates.some((i) => {
      const run = runs[i]!;
      const y = (run.y0 + run.y1) / 2;
      return y > row.box.y0 && y < row.box.y1 && run.x0 >= row.box.x1 && !EQUATION_NUMBER.test(run.text.replace(/\s/g, ''));
    });
  for (const head of order) {
    if (taken.has(head)) continue;
    const chain = [head];
    for (;;) {
      const last = chain[chain.length - 1]!;
      const size = head.size!;
      const next = order.find((f) => {
        if (taken.has(f) || chain.includes(f) || f.box.y0 <= last.box.y0 || f.box.y0 - last.box.y1 > CONTINUED_GAP_EM * size) return false;
        if (f.box.x0 > head.box.x1 || f.box.x1 < head.box.x0) return false;
        // Nothing stands between the rows (a line of prose between two displays parts them); a split's
        // number, centred on its rows at the margin, stands beside them.
        const between = candidates.some((i) => {
          const run = runs[i]!;
          const y = (run.y0 + run.y1) / 2;
          const beside = run.x0 >= Math.max(last.box.x1, f.box.x1) || run.x1 <= Math.min(last.box.x0, f.box.x0);
          return y > last.box.y1 && y < f.box.y0 && !(beside && EQUATION_NUMBER.test(run.text.replace(/\s/g, '')));
        });
        if (between) return false;
        // Rows with words set beside them (`&& \text{by the lemma}`) are rows of their own, each with its words.
        if (annotated(last) || annotated(f)) return false;
        const start = [...f.glyphs].sort((a, b) => a.x0 - b.x0)[0];
        return start !== undefined && CONTINUATION_START.test(start.text);
      });
      if (!next) break;
      chain.push(next);
    }
    const joined = continuedRows(chain);
    if (!joined) continue;
    for (const row of chain) taken.add(row);
    found.splice(found.indexOf(head), 1, joined);
    for (const row of chain.slice(1)) found.splice(found.indexOf(row), 1);
  }
}

/** How far apart (ems) the rows of one broken formula stand at most, ink to ink. */
const CONTINUED_GAP_EM = 1.5;

/** Relations (and the operators a broken line may start with) that a continued row begins with. */
const CONTINUATION_START = /^[=<>≤≥≠≈≡∼≃≅∝→⇒⇔⊂⊆∈+\-−±∓×·]$/u;

/**
 * One formula broken over rows (`split`, `multline`, an `aligned` block): the rows after the first
 * have no left side, each starting with a relation (`&= ...`) set under one of the first row's, or
 * with an operator set further right (`&\\quad + ...`). Read as one `aligned` environment, the rows
 * aligned at that relation; rows that each have a left side stay formulas of their own.
 */
function continuedRows(rows: readonly RowFormula[]): RowFormula | undefined {
  if (rows.length < 2) return undefined;
  const firsts = rows.map((row) => [...row.glyphs].sort((a, b) => a.x0 - b.x0));
  const head = firsts[0]!;
  const size = rows[0]!.size!;
  let align: number | undefined;
  for (const row of firsts.slice(1)) {
    const start = row[0];
    if (!start || !CONTINUATION_START.test(start.text) || start.x0 < head[0]!.x0 + size) return undefined;
    if (RELATION.test(start.text)) {
      const under = head.find((g) => RELATION.test(g.text) && Math.abs(g.x0 - start.x0) < 0.3 * size);
      if (!under || (align !== undefined && Math.abs(align - under.x0) > 0.3 * size)) return undefined;
      align ??= under.x0;
    }
  }
  if (align === undefined) return undefined;
  const at = align;
  const lines = rows.map((row, k) => {
    const part = (keep: (g: MathGlyph) => boolean) => {
      const glyphs = row.glyphs.filter(keep);
      const rules = row.rules.filter((r) => glyphs.some((g) => r.x0 <= g.x1 && r.x1 >= g.x0));
      return glyphs.length > 0 ? formulaLatex(glyphs, rules) : '';
    };
    const left = k === 0 ? part((g) => g.x1 <= at + 0.5) : '';
    const right = k === 0 ? part((g) => g.x1 > at + 0.5) : part(() => true);
    // A row starting right of the relations (`&\\quad + h`) is indented by a quad.
    const indent = k > 0 && !RELATION.test(firsts[k]![0]!.text) ? '\\quad ' : '';
    return `${left} &${indent}${right}`.trim();
  });
  const last = rows[rows.length - 1]!;
  return {
    cluster: rows.flatMap((row) => row.cluster),
    box: unionBox(rows.map((row) => row.box)),
    latex: `\\begin{aligned} ${lines.join(' \\\\ ').replace(/\s*[.,;]$/, '')} \\end{aligned}`,
    ...(rows.some((row) => row.number) ? { number: rows.flatMap((row) => row.number ?? []) } : {}),
    baseline: last.baseline!,
    size,
    glyphs: rows.flatMap((row) => row.glyphs),
    rules: rows.flatMap((row) => row.rules),
  };
}

function joinSideBySide(found: FoundFormula[]): void {
  found.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  for (let k = 0; k < found.length; k++) {
    const left = found[k]!;
    const right = found
      .filter((f) => f !== left && f.box.x0 > left.box.x1 && f.baseline !== undefined && Math.abs(f.baseline - left.baseline!) < 0.1 * left.size!)
      .sort((a, b) => a.box.x0 - b.box.x0)[0];
    if (!right || right.box.x0 - left.box.x1 > SIDE_BY_SIDE_GAP_EM * left.size!) continue;
    left.cluster.push(...right.cluster);
    if (right.number) left.number = [...(left.number ?? []), ...right.number];
    left.box = unionBox([left.box, right.box]);
    left.latex = `${left.latex} \\qquad ${right.latex}`;
    found.splice(found.indexOf(right), 1);
    k--;
  }
}

/**
 * A cluster's rows: the baselines of its full-size glyphs, less those of numerators and
 * denominators (over or under a rule), are the rows of an aligned display, and each run goes to the
 * row nearest its baseline. A cluster stays whole when it has one row, or when a tall delimiter
 * spans its rows (a matrix, cases): it is one formula then, not a formula a row.
 */
function formulaRows(runs: readonly TextRun[], cluster: readonly number[], rules: readonly Rule[], unicodeFonts: ReadonlySet<string>): number[][] {
  const members = cluster.map((i) => runs[i] as PlacedRun);
  const largest = Math.max(...members.map((r) => r.fontSize));
  const fractionRules = rules.filter((r) => r.orientation === 'horizontal');
  const inFraction = (run: PlacedRun) =>
    fractionRules.some((r) => r.x0 <= run.x0 + 1 && r.x1 >= run.x1 - 1 && Math.abs(ruleY(r) - run.baseline) < 1.1 * run.fontSize);
  const anchors = members.filter((r) => mathFontClass(r.fontName) !== 'extension' && r.fontSize >= 0.95 * largest && !inFraction(r));
  // A row's anchors step down by less than a line (a binomial's entries, a raised term); rows by more.
  const levels: number[] = [];
  let previous = -Infinity;
  for (const baseline of anchors.map((r) => r.baseline).sort((a, b) => a - b)) {
    if (baseline - previous > 1.15 * largest) levels.push(baseline);
    previous = baseline;
  }
  if (levels.length < 2) return [[...cluster]];
  // TeX's extension font hangs its glyphs from their baseline: a tall delimiter at a row's end reaches
  // no higher (a Unicode-mapped one, newtx's, stands on its baseline).
  const spans = (run: PlacedRun) => {
    const ink = unicodeFonts.has(run.fontName) ? inkBox(run) : { ...inkBox(run), y0: run.baseline - 0.05 * run.fontSize };
    return levels.some((level, k) => k > 0 && ink.y0 < (levels[k - 1]! + level) / 2 - 0.3 * largest && ink.y1 > (levels[k - 1]! + level) / 2 + 0.3 * largest);
  };
  if (members.some((r) => mathFontClass(r.fontName) === 'extension' && spans(r))) return [[...cluster]];
  const rows: number[][] = levels.map(() => []);
  for (const i of cluster) {
    const run = runs[i] as PlacedRun;
    const ink = inkBox(run);
    const y = mathFontClass(run.fontName) === 'extension' ? (ink.y0 + ink.y1) / 2 : run.baseline;
    let nearest = 0;
    for (let k = 1; k < levels.length; k++) if (Math.abs(levels[k]! - y) < Math.abs(levels[nearest]! - y)) nearest = k;
    rows[nearest]!.push(i);
  }
  return rows.filter((row) => row.length > 0);
}

/** The baseline most of the formula's largest glyphs stand on, and their size. */
function mainBaseline(members: readonly PlacedRun[]): { baseline: number; size: number } {
  const size = Math.max(...members.map((r) => r.fontSize));
  const full = members.filter((r) => r.fontSize >= 0.95 * size && mathFontClass(r.fontName) !== 'extension');
  const counts = new Map<number, number>();
  for (const run of full) counts.set(Math.round(run.baseline), (counts.get(Math.round(run.baseline)) ?? 0) + run.text.length);
  const baseline = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? members[0]!.baseline;
  return { baseline, size };
}

function ruleY(rule: Rule): number {
  return (rule.y0 + rule.y1) / 2;
}

/**
 * Extension fonts whose text is Unicode (newtx's maps `∑`, and `(` and `[` are parentheses and
 * brackets), told from TeX's, whose text is its slots (`X` a sum, `(` a brace), by any character
 * past ASCII that is not one of the slots' Control Pictures.
 */
export function unicodeExtensionFonts(runs: readonly TextRun[]): Set<string> {
  const fonts = new Set<string>();
  for (const run of runs) {
    if (mathFontClass(run.fontName) === 'extension' && /[^\u0000-\u007F\u2400-\u241F]/u.test(run.text)) fonts.add(run.fontName);
  }
  return fonts;
}

/** An equation number, `(2)`, last (or first) on its row and set off from the formula by more than an em. */
function isMarginNumber(runs: readonly TextRun[], row: readonly number[], i: number): boolean {
  const run = runs[i]!;
  if (!EQUATION_NUMBER.test(run.text.replace(/\s/g, ''))) return false;
  const others = row.filter((j) => j !== i).map((j) => runs[j]!);
  if (others.length === 0) return false;
  return others.every((o) => o.x1 + run.fontSize <= run.x0) || others.every((o) => run.x1 + run.fontSize <= o.x0);
}

const BIG_OPERATOR = /^[∑∏∐⋃⋂⨁⨂]$/u;

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
  // A big operator set in a text font (a word processor's `∑`) stands on the row: its limits, over
  // and under it, touch neither the row nor each other.
  for (const op of indices.filter((i) => BIG_OPERATOR.test(runs[i]!.text.trim()) && mathFontClass(runs[i]!.fontName) !== 'extension')) {
    const box = boxes.get(op)!;
    for (const i of indices) {
      const limit = boxes.get(i)!;
      const x = (limit.x0 + limit.x1) / 2;
      const gap = Math.max(limit.y0 - box.y1, box.y0 - limit.y1);
      if (i !== op && limit.fontSize < box.fontSize && x > box.x0 - 0.2 * box.fontSize && x < box.x1 + 0.2 * box.fontSize && gap >= 0 && gap < 0.4 * box.fontSize) parent.set(find(i), find(op));
    }
  }
  // A display operator's limit set in rows (`\\substack`): each row under the one before, centred under
  // the operator (or under integral signs, `\\iint\\limits_{A}`).
  for (const op of indices.filter((i) => mathFontClass(runs[i]!.fontName) === 'extension' && hasLimitsUnder(runs[i]!.text))) {
    const sign = runs[op]!;
    let bottom = boxes.get(op)!.y1;
    for (const i of [...indices].sort((a, b) => boxes.get(a)!.y0 - boxes.get(b)!.y0)) {
      const limit = boxes.get(i)!;
      const x = (limit.x0 + limit.x1) / 2;
      if (i === op || limit.fontSize >= sign.fontSize || limit.y0 < bottom - 0.5 * limit.fontSize || x < sign.x0 - 0.2 * sign.fontSize || x > sign.x1 + 0.2 * sign.fontSize) continue;
      if (limit.y0 - bottom > 0.4 * limit.fontSize) break;
      parent.set(find(i), find(op));
      bottom = Math.max(bottom, limit.y1);
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
  return joinEnclosed([...groups.values()], boxes);
}

/**
 * A one-row cluster lying within the height of a taller one and close beside it joins it: after a big
 * operator's raised limit (`\int_0^{\pi+2} f`) the rest of the row touches neither the limit's
 * row nor the operator.
 */
function joinEnclosed(groups: number[][], boxes: ReadonlyMap<number, Box & { fontSize: number }>): number[][] {
  const extent = (group: readonly number[]) => {
    const members = group.map((i) => boxes.get(i)!);
    return { ...unionBox(members), fontSize: Math.max(...members.map((b) => b.fontSize)) };
  };
  const extents = groups.map(extent);
  // Only a cluster taller than a line (a built-up formula) can hold another within its height.
  const tall = extents.map((e, k) => k).filter((k) => extents[k]!.y1 - extents[k]!.y0 > 1.6 * extents[k]!.fontSize);
  const absorbed = new Set<number>();
  const merged = groups.map((group) => [...group]);
  for (const a of tall) {
    if (absorbed.has(a)) continue;
    const outer = extents[a]!;
    extents.forEach((inner, b) => {
      if (b === a || absorbed.has(b) || tall.includes(b)) return;
      const gap = Math.max(outer.x0, inner.x0) - Math.min(outer.x1, inner.x1);
      if (inner.y0 >= outer.y0 && inner.y1 <= outer.y1 && gap <= CLUSTER_GAP_EM * inner.fontSize) {
        merged[a]!.push(...merged[b]!);
        absorbed.add(b);
      }
    });
  }
  // Two built-up parts of one row (`\\frac{3}{2m} \\sum_{a=1}^{m}` and, after it, `\\sum_{b_1+\\dots+b_q=a}`)
  // touch only where the second's limit starts under the first's end: each is as high as the other.
  for (const a of tall) {
    if (absorbed.has(a)) continue;
    for (const b of tall) {
      if (b === a || absorbed.has(b)) continue;
      const [one, two] = [extent(merged[a]!), extent(merged[b]!)];
      const gap = Math.max(one.x0, two.x0) - Math.min(one.x1, two.x1);
      const centred = (p: Box, q: Box) => (p.y0 + p.y1) / 2 > q.y0 && (p.y0 + p.y1) / 2 < q.y1;
      if (gap > 0 && gap <= CLUSTER_GAP_EM * Math.min(one.fontSize, two.fontSize) && centred(one, two) && centred(two, one)) {
        merged[a]!.push(...merged[b]!);
        absorbed.add(b);
      }
    }
  }
  return merged.filter((_, k) => !absorbed.has(k));
}

/** A run of the extension font's display operators, or of its integral signs (`\\iint` comes as `Z Z`). */
function hasLimitsUnder(text: string): boolean {
  const signs = text.trim().split(/\s+/);
  return signs.length === 1 ? glyphRole(signs[0]!, 'extension') === 'display-operator' || glyphLatex(signs[0]!, 'extension') === '\\int' : signs.every((sign) => glyphLatex(sign, 'extension') === '\\int');
}

/**
 * Where a run's ink is. The extension font hangs its big operators, radicals and delimiters from
 * the baseline, so their ink (and the limits set close over and under it) lies below it.
 */
function inkBox(run: PlacedRun): Box & { fontSize: number } {
  if (mathFontClass(run.fontName) !== 'extension') return run;
  // Integral signs set together (`\\iint`) come as one run, `Z Z`: each hangs as deep as one.
  const depth = extensionDepth(run.text.trim().split(/\s+/)[0]!);
  return { x0: run.x0, x1: run.x1, y0: run.baseline - 0.4 * run.fontSize, y1: run.baseline + (depth + 0.3) * run.fontSize, fontSize: run.fontSize };
}

/** A display's words (`\\text{if and only if}`, `\\quad\\text{otherwise}`): a few, and fewer letters than the math has. */
const MAX_TEXT_WORDS = 5;
const MAX_TEXT_SHARE = 0.6;

/**
 * Math fonts with a variable, a big operator or a fraction rule: a table cell such as `85.3 ± 0.2`
 * has a symbol-font glyph too, but is a figure, not a formula. Words other than operator names
 * are prose (a line with inline math), unless they are a few beside much math on a row that the
 * prose around it leaves room for on both sides (`setApart`): a display's `\text`.
 */
function isFormula(runs: readonly PlacedRun[], hasRule: boolean, setApart: () => boolean): boolean {
  let mathGlyphs = 0;
  let chars = 0;
  let words = 0;
  let wordChars = 0;
  for (const run of runs) {
    // The text font's glyphs read as TeX's roman: digits, brackets and operator names, never words.
    const own = mathFontClass(run.fontName);
    const fontClass = own === 'other' ? 'roman' : own;
    const visible = run.text.replace(/\s/g, '').length;
    chars += visible;
    if (fontClass === 'italic' || fontClass === 'extension' || fontClass === 'blackboard') mathGlyphs += visible;
    if (fontClass !== 'roman') continue;
    for (const word of run.text.match(/\p{L}{2,}/gu) ?? []) {
      if (!isProseWord(word)) continue;
      words++;
      wordChars += word.length;
    }
  }
  if (chars < MIN_FORMULA_CHARS) return false;
  const fewWords = words <= MAX_TEXT_WORDS && wordChars <= MAX_TEXT_SHARE * chars;
  // Code beside its output (a package manual's table of commands) is no display with words; a
  // display's words go with a relation (`\\text{if } l = 1`), a table's results need none.
  const code = runs.some((run) => run.monospace);
  const relation = runs.some((run) => RELATION.test(run.text));
  if (mathGlyphs > 0 || hasRule) return words === 0 || (fewWords && !code && relation && mathGlyphs >= MIN_FORMULA_CHARS && setApart());
  // No math font (a word processor's formula): italic variables and a relation, an operator or a
  // fraction, on a row set apart from the prose.
  const variables = runs.filter((run) => run.italic && VARIABLE.test(run.text.trim())).length;
  const operators = runs.filter(isSymbolRun).length;
  return variables > 0 && (operators > 0 || hasRule) && variables + operators >= MIN_FORMULA_CHARS && fewWords && setApart();
}

const RELATION = /[=<>≤≥≠≈≡∼≃≅∝→←↔⇒⇐⇔↦∈∉∋⊂⊃⊆⊇]/u;

/** An italic variable of a word processor's formula: a letter or two (`x`, `λn`), nothing else. */
const VARIABLE = /^\p{L}{1,2}$/u;
/** Relations and operators that make a row of italic letters a formula: `=` or `∑`, not a comma. */
const RELATION_OR_OPERATOR = /^[=<>≤≥≠≈≡∼∝∑∏∫∮√±∓×÷∈∉⊂⊃⊆⊇∪∩→⇒⇔↦∂∇]+$/u;

/** A run of nothing but relations and operators, in whatever font: the math of a formula set without a math font. */
function isSymbolRun(run: TextRun): boolean {
  return RELATION_OR_OPERATOR.test(run.text.replace(/\s/g, ''));
}

/** How far (ems) a display stands in from the prose's edges on both sides, at least. */
const DISPLAY_INDENT_EM = 2;
/** How far (lines) above and below a row the prose that frames it is looked for. */
const FRAME_LINES = 5;

/**
 * Whether the row stands in from both edges of the text above and below it, as a display does
 * (centred, or indented by fleqn's margin); a paragraph's last line with inline math starts at
 * the column's edge.
 */
function isSetApart(runs: readonly TextRun[], candidates: readonly number[], cluster: readonly number[], box: Box): boolean {
  const own = new Set(cluster);
  const size = Math.max(...cluster.map((i) => runs[i]!.fontSize));
  const frame = candidates
    .filter((i) => !own.has(i))
    .map((i) => runs[i]!)
    .filter((run) => run.x1 > box.x0 && run.x0 < box.x1 && run.y1 > box.y0 - FRAME_LINES * size && run.y0 < box.y1 + FRAME_LINES * size && !(run.y0 < box.y1 && run.y1 > box.y0));
  const above = frame.filter((run) => run.y1 <= box.y0);
  const below = frame.filter((run) => run.y0 >= box.y1);
  if (above.length === 0 && below.length === 0) return false;
  const left = Math.min(...frame.map((run) => run.x0));
  if (box.x0 - left < DISPLAY_INDENT_EM * size) return false;
  // Short lines around a wide display (a one-line paragraph before it, another after) say nothing of
  // the column's right edge: the prose further off does.
  const reach = candidates
    .filter((i) => !own.has(i))
    .map((i) => runs[i]!)
    .filter((run) => run.x1 > box.x0 && run.x0 < box.x1 && run.y1 > box.y0 - RIGHT_EDGE_LINES * size && run.y0 < box.y1 + RIGHT_EDGE_LINES * size && !(run.y0 < box.y1 && run.y1 > box.y0));
  const right = Math.max(...reach.map((run) => run.x1));
  return right - box.x1 >= DISPLAY_INDENT_EM * size;
}

/** How far (lines) above and below a row the column's right edge is looked for. */
const RIGHT_EDGE_LINES = 15;
