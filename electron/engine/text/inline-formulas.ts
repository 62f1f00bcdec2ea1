/**
 * Inline math of TeX-made pages (and of any page set with an OpenType math font), rebuilt as LaTeX
 * for `$...$`. A span starts at glyphs of a font only math is set in (math italic, symbols,
 * blackboard, extension) and takes in what TeX sets beside them in its text fonts: digits,
 * operators, brackets, operator names and the scripts raised or lowered after them. A word of
 * prose, a text-font punctuation mark or a letter of the text font ends it. The span is read by
 * the display formulas' reader (scripts by baseline and size), and kept only where it is clearly
 * math: a variable or a script; a lone number, a bullet or a footnote mark stays text.
 */

import { dominantFontSize, groupRows, splitRow } from '../layout/lines.js';
import type { TextRun } from '../layout/geometry.js';
import { unicodeExtensionFonts } from './display-formulas.js';
import { extensionDepth, extensionSlotsAsText, glyphLatex, isMathOnlyFont, isOperatorName, mathFontClass, type MathFontClass } from './math-glyphs.js';
import { formulaLatex, glyphsOf } from './math-layout.js';

type PlacedRun = TextRun & { baseline: number };

/**
 * What a piece of a row is to a span: `math` (a math font's run), `script` (a text font's run set
 * small and off the baseline), `operand` (digits, operators, brackets), `name` (an operator's
 * name), `letter` (one letter of the text font), `stop` (a word, punctuation: the span's end).
 */
type AtomKind = 'math' | 'script' | 'operand' | 'name' | 'letter' | 'stop';

interface Atom {
  run: number;
  /** Character offsets of the atom in its run's text. */
  start: number;
  end: number;
  text: string;
  x0: number;
  x1: number;
  kind: AtomKind;
}

/** Scripts are set at 70% (first level) or 50% of the size; off the baseline by more than 8% of it. */
const SCRIPT_SIZE = 0.85;
const SCRIPT_SHIFT = 0.08;
/** Atoms further apart than this (ems) are no part of one formula. */
const MAX_GAP_EM = 1;
/** A gap wider than this (ems) between two pieces is a space in the text. */
const SPACE_GAP_EM = 0.15;

/** A text font's pieces: words, numbers, and every other character on its own. */
const TEXT_TOKEN = /\p{L}+|\p{N}+(?:[.,]\p{N}+)*|\S/gu;
/** Operators, relations and brackets TeX takes from its text font in math. */
const TEXT_OPERATOR = /^[=+\-−<>()[\]|/!*×·±:ˆ˜¯˙¨´`˘ˇ]$/u;
const OPEN = /^[([{]$/u;
const CLOSE = /^[)\]}]$/u;
/** Text-font operators that need an operand beside them: never the first or last thing of a span. */
const BINARY = /^[=+\-−<>/*×·±:]$/u;
const RELATION = /^[=<>]$/u;
/** Operators TeX may break inline math after; a hyphen ending the row is a word's, broken there. */
const ROW_END_OPERATOR = /^[=+<>×·±]$/u;
const MATH_PUNCTUATION = /^[,.;:]$/u;
/** Marks a math font sets in prose: list bullets, footnote marks, the author's symbols. */
const PROSE_SYMBOL = /^[•·∗*†‡§¶◦○©®'’′,.;:]+$/u;
/** Symbols that are a formula's content on their own: infinity, partials, nabla, the empty set, big operators. */
const CONTENT_SYMBOL = /[∞∂∇∅∑∏∫∮ℓℏ℘ℵ]/u;
/** LaTeX that must not reach the Markdown from a glyph's own text: a script or group marker, a comment, a dollar. */
const UNSAFE_LATEX = /(?<!\\)[\^_~$%&#"`]|[\u0000-\u001F]/u;

/**
 * The runs with each inline formula taken out of them and put back as one run that carries its
 * LaTeX; the extension font's runs left in prose have their slots read as the delimiters they draw.
 */
export function withInlineFormulas(runs: readonly TextRun[]): TextRun[] {
  const asText = (run: TextRun): TextRun => (mathFontClass(run.fontName) === 'extension' ? { ...run, text: extensionSlotsAsText(run.text) } : run);
  if (!runs.some((run) => run.baseline !== undefined && isMathOnlyFont(mathFontClass(run.fontName)))) return runs.map(asText);
  const unicodeFonts = unicodeExtensionFonts(runs);
  // The extension font hangs its glyphs from the baseline: they share the row their ink stands in.
  const placed = runs.map(inkPlaced);
  const index = new Map(placed.map((run, i) => [run, i]));
  const replaced = new Map<number, TextRun[]>();
  for (const fragment of withScriptRows(groupRows(placed)).flatMap(splitRow)) {
    if (!fragment.runs.some((run) => isMathOnlyFont(mathFontClass(run.fontName)))) continue;
    if (fragment.runs.some((run) => run.baseline === undefined || run.monospace)) continue;
    const members = fragment.runs.map((run) => index.get(run)!);
    for (const [i, pieces] of rewriteFragment(runs, members, fragment.fontSize, unicodeFonts)) replaced.set(i, pieces);
  }
  // A glyph painted twice in one place (a fake bold, a doubled bar) goes with its twin into the formula.
  const taken = runs.filter((_, i) => replaced.has(i) && replaced.get(i)!.every((r) => r.latex !== undefined || r.text.trim() === ''));
  return runs.flatMap((run, i) => replaced.get(i) ?? (taken.some((t) => t !== run && isTwin(t, run)) ? [] : [asText(run)]));
}

function isTwin(a: TextRun, b: TextRun): boolean {
  return a.text === b.text && Math.abs(a.x0 - b.x0) < 0.2 * a.fontSize && Math.abs(a.y0 - b.y0) < 0.2 * a.fontSize;
}

/** A run of the extension font with the box its ink takes below its baseline; other runs as they are. */
function inkPlaced(run: TextRun): TextRun {
  if (mathFontClass(run.fontName) !== 'extension' || run.baseline === undefined) return run;
  const depth = extensionDepth(run.text.trim());
  return { ...run, y0: run.baseline - 0.4 * run.fontSize, y1: run.baseline + (depth + 0.3) * run.fontSize };
}

/**
 * Rows with math, each with the rows of small glyphs only over or under its baseline and within its
 * width joined to it: the scripts of a big operator or a deep subscript stand too low or too high
 * to share its row, and left apart they would cut it in two where they fill the gap.
 */
function withScriptRows(rows: readonly TextRun[][]): TextRun[][] {
  const absorbed = new Set<TextRun[]>();
  const joined = new Map<TextRun[], TextRun[]>();
  // Rows of the largest glyphs first: a row of scripts is taken, never the one taking.
  for (const row of [...rows].sort((a, b) => dominantFontSize(b) - dominantFontSize(a))) {
    if (absorbed.has(row) || !row.some((run) => isMathOnlyFont(mathFontClass(run.fontName)) && run.baseline !== undefined)) continue;
    const size = dominantFontSize(row);
    const baseline = mainBaseline(row.filter((run): run is PlacedRun => run.baseline !== undefined), size);
    const x0 = Math.min(...row.map((run) => run.x0));
    const x1 = Math.max(...row.map((run) => run.x1));
    const scripts = rows.filter(
      (other) =>
        other !== row &&
        !absorbed.has(other) &&
        !joined.has(other) &&
        other.every((run) => run.baseline !== undefined && run.fontSize <= SCRIPT_SIZE * size && run.x0 >= x0 && run.x1 <= x1 + size && run.baseline > baseline - 0.8 * size && run.baseline < baseline + 0.6 * size),
    );
    for (const other of scripts) absorbed.add(other);
    joined.set(row, [...row, ...scripts.flat()]);
  }
  return rows.filter((row) => !absorbed.has(row)).map((row) => joined.get(row) ?? row);
}

/** A fragment's runs rewritten where it holds inline formulas: each run index mapped to what replaces it. */
function rewriteFragment(runs: readonly TextRun[], members: readonly number[], size: number, unicodeFonts: ReadonlySet<string>): Map<number, TextRun[]> {
  const baseline = mainBaseline(members.map((i) => runs[i] as PlacedRun), size);
  const all = members.flatMap((i) => atomsOf(runs[i] as PlacedRun, i, size, baseline)).sort((a, b) => a.x0 - b.x0);
  // An extensible delimiter is drawn as the same piece stacked: one glyph to the formula.
  const stacked = new Map<Atom, Atom>();
  const atoms = all.filter((atom) => {
    const twin = all.find((other) => other !== atom && !stacked.has(other) && other.run !== atom.run && other.text === atom.text && Math.abs(other.x0 - atom.x0) < 0.2 * size && mathFontClass(runs[atom.run]!.fontName) === 'extension');
    if (!twin || all.indexOf(twin) > all.indexOf(atom)) return true;
    stacked.set(atom, twin);
    return false;
  });
  const spans: Atom[][] = [];
  // A span never grows back into the one before it.
  let floor = 0;
  for (let k = 0; k < atoms.length; k++) {
    if (atoms[k]!.kind !== 'math') continue;
    let first = k;
    let last = k;
    while (first > floor && joinsLeft(atoms, first - 1, runs, size)) first--;
    while (last < atoms.length - 1 && joinsRight(atoms, last + 1, runs, size)) last++;
    const span = trimmed(atoms.slice(first, last + 1), atoms[first - 1], size, last === atoms.length - 1);
    if (span.length > 0) spans.push(span);
    k = last;
    floor = last + 1;
  }
  const result = new Map<number, TextRun[]>();
  const used = new Set<Atom>();
  const formulas: { atoms: Atom[]; run: TextRun }[] = [];
  for (const span of spans) {
    const run = formulaRun(runs, span, unicodeFonts, size, baseline);
    if (!run) continue;
    formulas.push({ atoms: span, run });
    for (const atom of span) used.add(atom);
  }
  for (const [atom, twin] of stacked) if (used.has(twin)) used.add(atom);
  if (formulas.length === 0) return result;
  // Each touched run keeps what no formula took, as runs of its own; a formula goes where its first atom was.
  const touched = new Set([...used].map((a) => a.run));
  for (const i of touched) {
    const run = runs[i]!;
    const taken = [...used].filter((a) => a.run === i).sort((a, b) => a.start - b.start);
    const pieces: TextRun[] = [];
    let from = 0;
    for (const atom of taken) {
      if (atom.start > from) pieces.push(slice(run, from, atom.start));
      from = Math.max(from, atom.end);
    }
    if (from < run.text.length) pieces.push(slice(run, from, run.text.length));
    // Spaces left between a formula's glyphs are no text; the gaps around the formula give its spaces.
    result.set(i, pieces.filter((p) => p.text.trim()));
  }
  for (const { atoms: span, run } of formulas) {
    const owner = span[0]!.run;
    result.get(owner)!.push(run);
  }
  return result;
}

/** The baseline most of the row's text stands on. */
function mainBaseline(runs: readonly PlacedRun[], size: number): number {
  const counts = new Map<number, number>();
  for (const run of runs.filter((r) => r.fontSize >= 0.95 * size)) counts.set(Math.round(run.baseline * 4) / 4, (counts.get(Math.round(run.baseline * 4) / 4) ?? 0) + run.text.length);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? runs[0]!.baseline;
}

function isScript(run: PlacedRun, size: number, baseline: number): boolean {
  return run.fontSize <= SCRIPT_SIZE * size && Math.abs(run.baseline - baseline) > SCRIPT_SHIFT * size;
}

/** A run's atoms: a math font's run is one; a text font's run is cut into words, numbers and characters. */
function atomsOf(run: PlacedRun, i: number, size: number, baseline: number): Atom[] {
  const chars = [...run.text];
  const unit = (run.x1 - run.x0) / (chars.length || 1);
  const at = (start: number, end: number) => {
    const before = [...run.text.slice(0, start)].length;
    const length = [...run.text.slice(start, end)].length;
    return { x0: run.x0 + before * unit, x1: run.x0 + (before + length) * unit };
  };
  const pieces = (pattern: RegExp, kind: (token: string) => AtomKind): Atom[] =>
    [...run.text.matchAll(pattern)].map((match) => {
      const start = match.index;
      const end = start + match[0].length;
      return { run: i, start, end, text: match[0], ...at(start, end), kind: kind(match[0]) };
    });
  const whole = (kind: AtomKind): Atom[] => {
    const start = run.text.search(/\S/);
    if (start < 0) return [];
    const end = run.text.trimEnd().length;
    return [{ run: i, start, end, text: run.text.slice(start, end), ...at(start, end), kind }];
  };
  // A math font's glyphs one by one: a comma or full stop at a formula's end is the sentence's.
  if (isMathOnlyFont(mathFontClass(run.fontName))) return pieces(/\S\p{M}*/gu, () => 'math');
  if (isScript(run, size, baseline)) return whole('script');
  return pieces(TEXT_TOKEN, textKind);
}

function textKind(token: string): AtomKind {
  // TeX takes its upright Greek capitals (`\Omega`) from the text font.
  if (/^\p{N}/u.test(token) || TEXT_OPERATOR.test(token) || /^\p{Script=Greek}$/u.test(token)) return 'operand';
  if (/^\p{L}$/u.test(token)) return 'letter';
  if (/^\p{L}{2,}$/u.test(token) && isOperatorName(token)) return 'name';
  return 'stop';
}

function close(left: Atom, right: Atom, size: number): boolean {
  return right.x0 - left.x1 <= MAX_GAP_EM * size;
}

/** A gap narrower than this (ems) leaves two glyphs touching, as TeX sets an ordinary after another. */
const TOUCHING_EM = 0.1;
/** A relation's thick space (5/18 em), give or take: a bold letter may stand this far from the formula. */
const BOLD_GAP_EM = 0.3;

function joins(atom: Atom): boolean {
  return atom.kind === 'math' || atom.kind === 'operand' || atom.kind === 'name';
}

/**
 * Whether a text font's letter joins a span: a bold one touching it (`\mathbf{K}`), any one
 * touching math on both sides (`\det K(i)`); a letter after a formula (the plural's `s`) does not.
 */
function letterJoins(atom: Atom, inner: Atom, outer: Atom | undefined, bold: boolean, size: number): boolean {
  const gap = (a: Atom, b: Atom) => Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
  if (PROSE_SYMBOL.test(inner.text)) return false;
  // A bold letter may stand a thin space from an operator's name (`\det \mathbf{K}`).
  if (bold) return gap(atom, inner) <= BOLD_GAP_EM * size;
  // Between brackets of the text font only, a letter is an enumeration's `(i)`, not math.
  const mathBeside = [inner, outer].some((a) => a !== undefined && a.kind === 'math');
  return mathBeside && gap(atom, inner) <= TOUCHING_EM * size && outer !== undefined && joins(outer) && gap(atom, outer) <= TOUCHING_EM * size;
}

/** Whether the atom left of a span joins it. */
function joinsLeft(atoms: readonly Atom[], k: number, runs: readonly TextRun[], size: number): boolean {
  const atom = atoms[k]!;
  const next = atoms[k + 1]!;
  if (!close(atom, next, size)) return false;
  if (atom.kind === 'letter') return letterJoins(atom, next, atoms[k - 1], runs[atom.run]!.bold, size);
  // A script before the span is the script of what stands before it (`\mathbf{B}^{(\lambda)}`); alone at the span's start it is trimmed.
  if (atom.kind === 'script') return next.x0 - atom.x1 < 0.3 * size;
  return joins(atom);
}

/** Whether the atom right of a span joins it: a script only straight after a glyph it can belong to. */
function joinsRight(atoms: readonly Atom[], k: number, runs: readonly TextRun[], size: number): boolean {
  const atom = atoms[k]!;
  const previous = atoms[k - 1]!;
  if (!close(previous, atom, size)) return false;
  if (atom.kind === 'script') return atom.x0 - previous.x1 < 0.3 * size && !PROSE_SYMBOL.test(previous.text);
  if (atom.kind === 'letter') return letterJoins(atom, previous, atoms[k + 1], runs[atom.run]!.bold, size);
  return joins(atom);
}

/**
 * The span less what belongs to the prose around it: unbalanced brackets and text-font operators
 * at its ends. A relation at its start takes the letter before it (`**A** = (a_{ij})`). An operator
 * ending the row (`rowEnd`) stays: TeX broke the formula after it, and it goes on on the next line.
 */
function trimmed(span: Atom[], before: Atom | undefined, size: number, rowEnd: boolean): Atom[] {
  let atoms = balanced(span);
  for (let changed = true; changed && atoms.length > 0; ) {
    changed = false;
    const first = atoms[0]!;
    const last = atoms[atoms.length - 1]!;
    if (first.kind === 'operand' && BINARY.test(first.text) && !(RELATION.test(first.text) && before?.kind === 'letter' && close(before, first, size))) {
      atoms = atoms.slice(1);
      changed = true;
    } else if (last.kind === 'operand' && BINARY.test(last.text) && !(rowEnd && ROW_END_OPERATOR.test(last.text) && last === span[span.length - 1] && atoms.length > 1)) {
      atoms = atoms.slice(0, -1);
      changed = true;
    } else if (MATH_PUNCTUATION.test(last.text) || (first.kind === 'math' && MATH_PUNCTUATION.test(first.text))) {
      // A full stop or comma at a formula's end ends the sentence or the list it stands in.
      atoms = MATH_PUNCTUATION.test(last.text) ? atoms.slice(0, -1) : atoms.slice(1);
      changed = true;
    } else if (first.kind === 'script') {
      atoms = atoms.slice(1);
      changed = true;
    } else if (last.kind === 'name' || (first.kind === 'name' && atoms.length === 1)) {
      atoms = atoms.slice(0, -1);
      changed = true;
    }
  }
  if (atoms.length > 0 && before?.kind === 'letter' && atoms[0] === span[0] && RELATION.test(atoms[0]!.text) && atoms[0]!.kind === 'operand' && close(before, atoms[0]!, size)) atoms.unshift(before);
  return atoms;
}

/**
 * The span cut at its unmatched brackets (one closed or opened in the prose around it), the part
 * with the most math kept.
 */
function balanced(span: readonly Atom[]): Atom[] {
  const open: number[] = [];
  const unmatched = new Set<number>();
  span.forEach((atom, k) => {
    if (atom.kind === 'math') return;
    if (OPEN.test(atom.text)) open.push(k);
    else if (CLOSE.test(atom.text)) {
      if (open.length > 0) open.pop();
      else unmatched.add(k);
    }
  });
  for (const k of open) unmatched.add(k);
  if (unmatched.size === 0) return [...span];
  const parts: Atom[][] = [[]];
  span.forEach((atom, k) => (unmatched.has(k) ? parts.push([]) : parts[parts.length - 1]!.push(atom)));
  const weight = (part: readonly Atom[]) => part.filter((a) => a.kind === 'math').length;
  return parts.reduce((best, part) => (weight(part) > weight(best) ? part : best));
}

/** Opening brackets less closing ones over the span's text. */
function bracketDepth(atoms: readonly Atom[]): number {
  let depth = 0;
  for (const atom of atoms) for (const char of atom.text) depth += OPEN.test(char) ? 1 : CLOSE.test(char) ? -1 : 0;
  return depth;
}

/** The span as one run carrying its LaTeX, or undefined where it is not clearly math. */
function formulaRun(runs: readonly TextRun[], span: readonly Atom[], unicodeFonts: ReadonlySet<string>, size: number, baseline: number): TextRun | undefined {
  if (!isClearlyMath(runs, span, size, baseline)) return undefined;
  if (bracketDepth(span) !== 0) return undefined;
  const byRun = new Map<number, Atom[]>();
  for (const atom of span) byRun.set(atom.run, [...(byRun.get(atom.run) ?? []), atom]);
  const glyphs = [...byRun.entries()].flatMap(([i, atoms]) => {
    const run = runs[i] as PlacedRun;
    const start = Math.min(...atoms.map((a) => a.start));
    const end = Math.max(...atoms.map((a) => a.end));
    const part = { ...slice(run, start, end), baseline: run.baseline };
    // A bold letter of the text font comes back `\mathbf` (math-layout.ts reads its alphabet).
    return glyphsOf(part, unicodeFonts.has(run.fontName));
  });
  if (glyphs.some((g) => UNSAFE_LATEX.test(glyphLatex(g.text, g.fontClass, g.unicodeMapped)))) return undefined;
  // The reader spaces every glyph; a number's digits read as one (TeX sets them alike either way).
  const read = formulaLatex(glyphs, []).trim().replace(/(?<=\d) (\. )?(?=\d)/g, (_, point: string | undefined) => (point ? '.' : ''));
  if (!read || /^[\d\s.,]+$/.test(read)) return undefined;
  const members = span.map((a) => runs[a.run]!);
  const main = members.filter((r) => Math.abs(r.baseline! - baseline) <= SCRIPT_SHIFT * size && r.fontSize >= 0.95 * size);
  // Glyphs all set small off the baseline are a script of the word before them (an affiliation's `^{a}`).
  const raised = main.length === 0 && members.every((r) => r.fontSize <= SCRIPT_SIZE * size);
  const latex = raised ? `${members[0]!.baseline! < baseline ? '^' : '_'}{${read}}` : read;
  const anchor = main.length > 0 ? main : members;
  const links = new Set(members.map((r) => r.link));
  const text = span.map((a, k) => (k > 0 && a.x0 - span[k - 1]!.x1 > SPACE_GAP_EM * size ? ` ${a.text}` : a.text)).join('');
  return {
    text,
    latex,
    x0: span[0]!.x0,
    x1: Math.max(...span.map((a) => a.x1)),
    y0: Math.min(...anchor.map((r) => r.y0)),
    y1: Math.max(...anchor.map((r) => r.y1)),
    baseline,
    fontSize: size,
    fontName: members[0]!.fontName,
    bold: false,
    italic: false,
    monospace: false,
    ...(links.size === 1 && members[0]!.link ? { link: members[0]!.link } : {}),
  };
}

/**
 * A variable, a symbol that is content on its own, or a script, in a math font: not a bullet, a
 * footnote mark, nor the calligraphic capitals of the AMS logo standing alone. A number and one
 * letter at full size set off the baseline is a logo (LaTeX2e's lowered epsilon), not a formula.
 */
function isClearlyMath(runs: readonly TextRun[], span: readonly Atom[], size: number, baseline: number): boolean {
  const placed = (a: Atom) => {
    const run = runs[a.run]!;
    return Math.abs(run.baseline! - baseline) <= SCRIPT_SHIFT * size || run.fontSize <= SCRIPT_SIZE * size;
  };
  const math = span.filter((a) => a.kind === 'math');
  if (span.length === 2 && /^\d$/.test(span[0]!.text) && math.length === 1 && !placed(math[0]!)) return false;
  const classOf = (a: Atom): MathFontClass => mathFontClass(runs[a.run]!.fontName);
  if (math.every((a) => PROSE_SYMBOL.test(a.text))) return false;
  const logo = math.length >= 2 && math.length === span.length && math.every((a) => classOf(a) === 'symbol' && /^\p{Lu}$/u.test(a.text));
  if (logo) return false;
  return math.some((a) => /\p{L}/u.test(a.text) || CONTENT_SYMBOL.test(a.text) || classOf(a) === 'extension') || span.some((a) => a.kind === 'script' || a.kind === 'letter');
}

/** Part of a run, its box estimated from an even share of the run's width a character. */
function slice(run: TextRun, start: number, end: number): TextRun {
  const chars = [...run.text].length || 1;
  const unit = (run.x1 - run.x0) / chars;
  const before = [...run.text.slice(0, start)].length;
  const length = [...run.text.slice(start, end)].length;
  return { ...run, text: run.text.slice(start, end), x0: run.x0 + before * unit, x1: run.x0 + (before + length) * unit };
}
