/**
 * A formula's glyphs and rules, as TeX placed them, read back into LaTeX. Left to right: a rule
 * with glyphs above and below is a fraction; a radical sign with a rule from its top is a square
 * root over what lies under the rule; a big operator with glyphs above and below it has limits;
 * smaller glyphs raised or lowered right after a glyph are its superscript and subscript; an
 * accent glyph over a letter is that letter's accent. Each part is read the same way, recursively.
 */

import type { Box, Rule, TextRun } from '../layout/geometry.js';
import { accentCommand, extensionDepth, glyphLatex, glyphRole, isProseWord, mathAlphabet, mathFontClass, type GlyphRole, type MathFontClass } from './math-glyphs.js';

export interface MathGlyph extends Box {
  text: string;
  baseline: number;
  size: number;
  fontClass: MathFontClass;
  role: GlyphRole;
  /** Accent commands over the glyph, innermost first. */
  accents: string[];
  /** An extension font glyph whose text is Unicode, not TeX's slot. */
  unicodeMapped: boolean;
  /** Set in a text font, not a math font (a word processor's formula, or TeX's text digits). */
  textFont: boolean;
  /** The text layer has a space right before it in the same run. */
  spaceBefore: boolean;
  opensRun: boolean;
  closesRun: boolean;
  /** The math alphabet (`\\mathbf`, `\\mathsf`) the glyph's font sets it in, if any. */
  alphabet?: string;
  /** A display operator's limits, set over and under it. */
  limits?: { lower: MathGlyph[]; upper: MathGlyph[] };
}

/** Scripts are set at 70% (first level) or 50% of the size; anything at 85% or less is one. */
const SCRIPT_SIZE = 0.85;
/** A baseline moved by more than this share of the size is a raised or lowered script. */
const SCRIPT_SHIFT = 0.08;
const MIN_SCRIPT_POINTS = 7;

/** A run's glyphs: upright letters stay together as a word (an operator name), the rest one by one. */
export function glyphsOf(run: TextRun & { baseline: number }, unicodeMapped = false): MathGlyph[] {
  const own = mathFontClass(run.fontName);
  // In a formula the text font sets digits, brackets and operator names upright, as TeX's roman
  // does; its italic (a word processor's variables) is the math italic.
  const fontClass = own === 'other' ? (run.italic ? 'italic' : 'roman') : own;
  const chars = [...run.text];
  const unit = (run.x1 - run.x0) / (chars.length || 1);
  // Variation selectors (a display-size operator's `∑︁` in newtx) choose a glyph and add no symbol.
  const text = run.text.replace(/[\uFE00-\uFE0F]/g, ' ');
  const alphabet = mathAlphabet(run.fontName, run.bold, run.italic);
  // A bold or sans-serif word that is no prose is letters of that alphabet (`\\mathbf{A}\\mathbf{x}`), not an operator's name.
  const words = fontClass === 'roman' ? text.match(/\p{L}{2,}|\S\p{M}*/gu) : text.match(/\S\p{M}*/gu);
  const pieces = alphabet ? words?.flatMap((piece) => (/^\p{L}{2,}$/u.test(piece) && !isProseWord(piece) ? piece.match(/\S\p{M}*/gu)! : [piece])) : words;
  const glyphs: MathGlyph[] = [];
  let offset = 0;
  for (const [index, piece] of (pieces ?? []).entries()) {
    const start = text.indexOf(piece, offset);
    const spaceBefore = index > 0 && /\s/.test(text.slice(offset, start));
    const before = [...text.slice(0, start)].length;
    const length = [...piece].length;
    offset = start + piece.length;
    const x0 = run.x0 + before * unit;
    glyphs.push({
      text: piece,
      x0,
      x1: x0 + length * unit,
      y0: run.y0,
      y1: run.y1,
      baseline: run.baseline,
      size: run.fontSize,
      fontClass,
      role: glyphRole(piece, fontClass, unicodeMapped),
      unicodeMapped,
      textFont: own === 'other',
      accents: [],
      ...(alphabet && /^[\p{L}\p{N}]\p{M}*$/u.test(piece) ? { alphabet } : {}),
      spaceBefore,
      opensRun: index === 0,
      closesRun: index === pieces!.length - 1,
    });
  }
  return glyphs;
}

/** The formula as LaTeX; `rules` are the horizontal rules drawn among its glyphs. */
export function formulaLatex(glyphs: readonly MathGlyph[], rules: readonly Rule[]): string {
  const horizontal = rules.filter((r) => r.orientation === 'horizontal');
  return readRow(attachLimits(attachNegations(attachAccents(glyphs)).filter((g) => g.role !== 'piece'), horizontal), horizontal);
}

/**
 * Whether the glyphs read as one row (with scripts, limits, fractions and roots): two glyphs at
 * full size one over the other with no rule between them are rows of a matrix or an array, which
 * this reader would interleave column by column.
 */
export function isSingleRow(glyphs: readonly MathGlyph[], rules: readonly Rule[]): boolean {
  const largest = Math.max(...glyphs.map((g) => g.size));
  const full = glyphs.filter((g) => g.role === 'ordinary' && g.size >= 0.95 * largest);
  const horizontal = rules.filter((r) => r.orientation === 'horizontal');
  const spans = (r: Rule, g: MathGlyph) => r.x0 <= centreX(g) && r.x1 >= centreX(g);
  const stacked = new Map(binomials(glyphs, horizontal).flatMap((b) => [...b.upper, ...b.lower].map((g) => [g, b] as const)));
  for (const upper of full) {
    for (const lower of full) {
      if (lower.baseline - upper.baseline < 0.9 * upper.size) continue;
      if (stacked.has(upper) && stacked.get(upper) === stacked.get(lower)) continue;
      if (Math.min(upper.x1, lower.x1) <= Math.max(upper.x0, lower.x0)) continue;
      const between = horizontal.some((r) => ruleY(r) > upper.baseline - 0.2 * upper.size && ruleY(r) < lower.baseline && spans(r, upper) && spans(r, lower));
      if (!between) return false;
    }
  }
  return true;
}

/** A column gap of `cases` (a quad after the widest entry), in ems at least. */
const CASES_COLUMN_GAP_EM = 0.8;

/**
 * A piecewise definition (`cases`): an open brace as tall as two rows or more with nothing after it
 * but its rows, each row's condition starting at one x. Read as what comes before the brace and a
 * `cases` environment, a row each, or undefined where the glyphs are not so laid out.
 */
export function casesLatex(glyphs: readonly MathGlyph[], rules: readonly Rule[]): string | undefined {
  const brace = glyphs.find((g) => g.fontClass === 'extension' && glyphLatex(g.text, g.fontClass, g.unicodeMapped) === '\\{');
  if (!brace) return undefined;
  const column = glyphs.filter((g) => g === brace || (g.role === 'piece' && g.x0 < brace.x1 && g.x1 > brace.x0));
  // TeX's extension font hangs a big brace from its baseline; Unicode's pieces stand on theirs.
  const top = Math.min(...column.map((g) => g.baseline)) - 0.5 * brace.size;
  const bottom = Math.max(...column.map((g) => g.baseline + (g.unicodeMapped ? 0.3 : extensionDepth(g.text) + 0.3) * g.size));
  const braceX1 = Math.max(...column.map((g) => g.x1));
  const before = glyphs.filter((g) => !column.includes(g) && g.x1 <= brace.x0 + 0.5);
  const after = glyphs.filter((g) => !column.includes(g) && g.x0 >= braceX1 - 0.5);
  if (before.length + after.length + column.length !== glyphs.length || after.length === 0) return undefined;
  if (after.some((g) => g.baseline < top || g.baseline > bottom + 0.5 * brace.size)) return undefined;
  // A closing delimiter after the rows makes a matrix or a group, not a piecewise definition.
  if (after.some((g) => g.fontClass === 'extension')) return undefined;
  const rows = rowsOf(after);
  if (rows.length < 2) return undefined;
  const ruleRows = rows.map((row) => {
    const y0 = Math.min(...row.map((g) => g.y0));
    const y1 = Math.max(...row.map((g) => g.y1));
    return rules.filter((r) => ruleY(r) > y0 && ruleY(r) < y1 && r.x0 >= braceX1 - 0.5);
  });
  const split = conditionStart(rows);
  const lines = rows.map((row, k) => {
    if (split === undefined) return formulaLatex(row, ruleRows[k]!);
    const value = row.filter((g) => g.x0 < split - 0.5);
    const condition = row.filter((g) => g.x0 >= split - 0.5);
    const at = (part: readonly MathGlyph[]) => ruleRows[k]!.filter((r) => part.some((g) => r.x0 <= g.x1 && r.x1 >= g.x0));
    return `${formulaLatex(value, at(value))} & ${formulaLatex(condition, at(condition))}`;
  });
  const lead = before.length > 0 ? `${formulaLatex(before, rules.filter((r) => r.x1 <= brace.x0 + 0.5))} ` : '';
  return `${lead}\\begin{cases} ${lines.join(' \\\\ ')} \\end{cases}`;
}

/** Glyphs in rows: each full-size baseline more than most of a line below the last starts a row; scripts go to the nearest. */
function rowsOf(glyphs: readonly MathGlyph[], pitch = 0.9): MathGlyph[][] {
  const largest = Math.max(...glyphs.map((g) => g.size));
  const levels: number[] = [];
  for (const baseline of glyphs.filter((g) => g.size >= 0.95 * largest).map((g) => g.baseline).sort((a, b) => a - b)) {
    if (levels.length === 0 || baseline - levels[levels.length - 1]! > pitch * largest) levels.push(baseline);
  }
  const rows: MathGlyph[][] = levels.map(() => []);
  for (const g of glyphs) {
    let nearest = 0;
    for (let k = 1; k < levels.length; k++) if (Math.abs(levels[k]! - g.baseline) < Math.abs(levels[nearest]! - g.baseline)) nearest = k;
    rows[nearest]!.push(g);
  }
  return rows.filter((row) => row.length > 0);
}

/** Where the conditions start: an x that follows a quad's gap on every row (cases sets them flush left), if one does. */
function conditionStart(rows: readonly MathGlyph[][]): number | undefined {
  const starts = rows.map((row) => {
    const sorted = [...row].sort((a, b) => a.x0 - b.x0);
    let right = -Infinity;
    const found: number[] = [];
    for (const g of sorted) {
      if (right > -Infinity && g.x0 - right >= CASES_COLUMN_GAP_EM * g.size) found.push(g.x0);
      right = Math.max(right, g.x1);
    }
    return found;
  });
  return starts[0]!.find((x) => starts.every((list) => list.some((y) => Math.abs(y - x) < 1)));
}

/**
 * Display operators take their limits before anything else is read: a limit row can start left of
 * its operator, and the operator may sit under a radical or in a fraction read later.
 */
function attachLimits(glyphs: readonly MathGlyph[], rules: readonly Rule[]): MathGlyph[] {
  let rest = [...glyphs];
  const operators = glyphs.filter((g) => g.role === 'display-operator').sort((a, b) => a.x0 - b.x0);
  for (const op of operators) {
    // A fraction's rule between the operator and a glyph puts them in numerator and denominator: no limit.
    const ruleBetween = (g: MathGlyph) =>
      rules.some((r) => r.x0 <= centreX(g) && r.x1 >= centreX(g) && ruleY(r) > Math.min(op.baseline, inkY(g)) && ruleY(r) < Math.max(op.baseline, inkY(g)));
    // Limits of the next operator on the row (`\sum_{i} \prod_{j}`) may touch this one's: they are centred under their own.
    const rivals = operators.filter((o) => o !== op && Math.abs(o.baseline - op.baseline) < 0.5 * op.size);
    const underRival = (g: MathGlyph) => rivals.some((o) => centreX(g) > o.x0 - 0.1 * o.size && centreX(g) < o.x1 + 0.1 * o.size);
    const found = operatorLimits(op, rest.filter((g) => g !== op && !ruleBetween(g) && !underRival(g)));
    if (!found) continue;
    op.limits = { lower: [...found.lower], upper: [...found.upper] };
    rest = rest.filter((g) => !found.lower.has(g) && !found.upper.has(g));
  }
  return attachIntegralLimits(rest);
}

/**
 * `\\iint\\limits_{A}`: TeX's display integral keeps its scripts beside it, the lower one reaching into
 * its depth; a limit set under it (`\\limits`) starts below its foot, centred on the signs set
 * together. The limits go to the first sign, which readRow joins with the others.
 */
function attachIntegralLimits(glyphs: readonly MathGlyph[]): MathGlyph[] {
  let rest = [...glyphs];
  const signs = glyphs.filter((g) => g.fontClass === 'extension' && !g.unicodeMapped && isIntegral(g)).sort((a, b) => a.x0 - b.x0);
  for (let k = 0; k < signs.length; k++) {
    const first = signs[k]!;
    let last = first;
    while (signs[k + 1] && Math.abs(signs[k + 1]!.baseline - first.baseline) < 0.1 * first.size && signs[k + 1]!.x0 <= last.x1 + INTEGRAL_GAP_EM * first.size) last = signs[++k]!;
    const size = first.size;
    const foot = first.baseline + extensionDepth(first.text) * size;
    const centred = (g: MathGlyph) => centreX(g) > first.x0 - 0.1 * size && centreX(g) < last.x1 + 0.1 * size && g.size < size;
    const lower = rest.filter((g) => centred(g) && g.y0 > foot - 0.1 * size && g.y0 < foot + size);
    const upper = rest.filter((g) => centred(g) && g.y1 < first.baseline - 0.1 * size && g.y1 > first.baseline - 1.2 * size);
    if (lower.length === 0 && upper.length === 0) continue;
    const grow = (seeds: readonly MathGlyph[]) => {
      const row = new Set(seeds);
      for (let grew = true; grew; ) {
        grew = false;
        for (const g of rest) {
          if (row.has(g) || isIntegral(g)) continue;
          if ([...row].some((r) => Math.abs(r.baseline - g.baseline) < 0.3 * r.size && g.x0 < r.x1 + 0.4 * r.size && g.x1 > r.x0 - 0.4 * r.size)) {
            row.add(g);
            grew = true;
          }
        }
      }
      return [...row];
    };
    const limits = { lower: grow(lower), upper: grow(upper) };
    const index = rest.indexOf(first);
    rest[index] = { ...first, limits };
    rest = rest.filter((g) => !limits.lower.includes(g) && !limits.upper.includes(g));
  }
  return rest;
}

/** Accent glyphs set over a letter become that letter's accent. */
function attachAccents(glyphs: readonly MathGlyph[]): MathGlyph[] {
  const result = glyphs.map((g) => ({ ...g, accents: [...g.accents] }));
  const accents = result.filter((g) => g.role === 'accent');
  const dropped = new Set<MathGlyph>();
  for (const accent of accents) {
    const width = accent.x1 - accent.x0;
    let best: MathGlyph | undefined;
    let bestOverlap = 0.3 * width;
    for (const base of result) {
      if (base === accent || base.role === 'accent') continue;
      const overlap = Math.min(base.x1, accent.x1) - Math.max(base.x0, accent.x0);
      // TeX raises the accent glyph a little or not at all; it sits over the letter, never beside it.
      const raised = base.baseline - accent.baseline;
      if (overlap > bestOverlap && raised >= -0.1 * base.size && raised < 0.9 * base.size) {
        best = base;
        bestOverlap = overlap;
      }
    }
    if (best) {
      best.accents.push(accentCommand(accent.text, accent.fontClass, accent.unicodeMapped)!);
      dropped.add(accent);
    }
  }
  return result.filter((g) => !dropped.has(g));
}

/** TeX's `\not`: a slash glyph of its own (U+0338 in the text layer) set over the relation it negates. */
const NEGATION = '\u0338';

/** A negation slash over a relation makes the negated relation (`=` becomes `≠`), in either order in the text layer. */
function attachNegations(glyphs: readonly MathGlyph[]): MathGlyph[] {
  const slashes = glyphs.filter((g) => g.text === NEGATION);
  if (slashes.length === 0) return [...glyphs];
  const result = glyphs.filter((g) => g.text !== NEGATION).map((g) => ({ ...g }));
  for (const slash of slashes) {
    const centre = centreX(slash);
    const negated = result
      .filter((g) => g.role === 'ordinary' && Math.abs(g.baseline - slash.baseline) < 0.3 * g.size && Math.abs(centreX(g) - centre) < 0.6 * g.size)
      .sort((a, b) => Math.abs(centreX(a) - centre) - Math.abs(centreX(b) - centre))[0];
    if (negated) negated.text = negatedRelation(negated.text);
  }
  return result;
}

/** The composed character where Unicode has one (`≠`, `∉`, `≢`), else the relation marked for `\not`. */
function negatedRelation(text: string): string {
  const composed = (text + NEGATION).normalize('NFC');
  return [...composed].length === 1 ? composed : `${text}${NEGATION}`;
}

function centreX(box: Box): number {
  return (box.x0 + box.x1) / 2;
}

/**
 * Where a glyph's ink is centred vertically, about: half an x-height above its baseline, or, for
 * radicals and the extension font's glyphs (hung from the baseline), below it.
 */
function inkY(glyph: MathGlyph): number {
  if (glyph.role === 'radical' || glyph.fontClass === 'extension') return glyph.baseline + 0.5 * glyph.size;
  return glyph.baseline - 0.3 * glyph.size;
}

function ruleY(rule: Rule): number {
  return (rule.y0 + rule.y1) / 2;
}

function readRow(glyphs: readonly MathGlyph[], rules: readonly Rule[]): string {
  let left = [...glyphs].sort((a, b) => a.x0 - b.x0);
  let leftRules = [...rules].sort((a, b) => a.x0 - b.x0);
  const tokens: string[] = [];
  const take = (glyphTest: (g: MathGlyph) => boolean, ruleTest: (r: Rule) => boolean) => {
    const taken = { glyphs: left.filter(glyphTest), rules: leftRules.filter(ruleTest) };
    left = left.filter((g) => !glyphTest(g));
    leftRules = leftRules.filter((r) => !ruleTest(r));
    return taken;
  };
  let right = -Infinity;
  let previous: Edge | undefined;
  while (left.length > 0 || leftRules.length > 0) {
    const glyph = left[0];
    const rule = leftRules[0];
    const before = previous;
    previous = undefined;
    if (rule && (!glyph || rule.x0 <= glyph.x0 + 0.5)) {
      const built = fraction(rule, take);
      right = rule.x1;
      tokens.push(built.base ? withScripts(built.latex, built.base) : built.latex);
      continue;
    }
    let g = glyph!;
    left = left.slice(1);
    const binomial = g.fontClass === 'extension' ? binomials([g, ...left], leftRules).find((b) => b.open === g) : undefined;
    if (binomial) {
      const inside = new Set([...binomial.upper, ...binomial.lower, binomial.close]);
      left = left.filter((x) => !inside.has(x));
      tokens.push(`\\binom{${readRow(binomial.upper, [])}}{${readRow(binomial.lower, [])}}`);
      right = binomial.close.x1;
      continue;
    }
    if (g.role === 'radical') {
      tokens.push(radical(g, leftRules, take));
      continue;
    }
    if (isTextWord(g)) {
      const words = textSpan(g, left);
      left = left.slice(words.length - 1);
      right = words[words.length - 1]!.x1;
      tokens.push(`\\text{${spacedText(words)}}`);
      continue;
    }
    let nucleus = glyphLatex(g.text, g.fontClass, g.unicodeMapped);
    // amsmath's \iint and \iiint are integral signs set close together, nothing between them.
    if (nucleus === '\\int') {
      const signs = [g];
      while (signs.length < 3 && left[0] && isIntegral(left[0]) && Math.abs(left[0].baseline - g.baseline) < 0.1 * g.size && left[0].x0 <= signs[signs.length - 1]!.x1 + INTEGRAL_GAP_EM * g.size) {
        signs.push(left[0]);
        left = left.slice(1);
      }
      if (signs.length > 1) {
        nucleus = signs.length === 2 ? '\\iint' : '\\iiint';
        g = { ...g, x1: signs[signs.length - 1]!.x1 };
      }
    }
    // A bar with space on both sides is a relation ("given"), not the bracket of an absolute value.
    if (g.text === '|' && g.x0 - right > 0.15 * g.size && (left[0]?.x0 ?? -Infinity) - g.x1 > 0.15 * g.size) nucleus = '\\mid';
    right = g.x1;
    if (before && thinSpaceBetween(before, g)) tokens.push('\\,');
    previous = { glyph: g, x1: g.x1, closesRun: g.closesRun };
    if (g.alphabet) nucleus = `${g.alphabet}{${nucleus}}`;
    for (const command of g.accents) nucleus = `${command}{${nucleus}}`;
    if (g.limits) {
      // An integral's limits are set under and over it only when the author asked (`\\limits`).
      tokens.push(nucleus + (isIntegral(g) ? '\\limits' : '') + scripts(limitLatex(g.limits.lower), limitLatex(g.limits.upper)));
      continue;
    }
    tokens.push(withScripts(nucleus, g));
  }
  return joinTokens(tokens);

  /** The nucleus with the scripts set after `g`, its last glyph, taken from what is left. */
  function withScripts(nucleus: string, g: MathGlyph): string {
    const group = scriptGroup(g, left, leftRules);
    const taken = take((x) => group.glyphs.has(x), (r) => group.rules.has(r));
    const last = taken.glyphs.reduce<MathGlyph | undefined>((a, x) => (!a || x.x1 > a.x1 ? x : a), undefined);
    if (last && last.x1 > g.x1) previous = { glyph: g, x1: last.x1, closesRun: last.closesRun };
    const base = scriptBaseline(g);
    const isSup = (y: number) => y < base - SCRIPT_SHIFT * g.size;
    const above = { glyphs: taken.glyphs.filter((x) => isSup(x.baseline)), rules: taken.rules.filter((r) => ruleY(r) < base - 0.3 * g.size) };
    const below = {
      glyphs: taken.glyphs.filter((x) => !above.glyphs.includes(x)),
      rules: taken.rules.filter((r) => !above.rules.includes(r)),
    };
    return nucleus + scripts(readRow(below.glyphs, below.rules), readRow(above.glyphs, above.rules));
  }
}

/** A limit as LaTeX: limits stacked in rows under (or over) their operator are a `\\substack`, a row each. */
function limitLatex(glyphs: readonly MathGlyph[]): string {
  const rows = rowsOf(glyphs, 0.8);
  if (rows.length < 2) return readRow(glyphs, []);
  return `\\substack{${rows.map((row) => readRow(row, [])).join(' \\\\ ')}}`;
}

/** An upright word that is prose, not an operator's name: the start of a `\\text{...}`. */
function isTextWord(glyph: MathGlyph): boolean {
  return glyph.fontClass === 'roman' && /^\p{L}{2,}$/u.test(glyph.text) && isProseWord(glyph.text);
}

/** Glyphs of a text span: upright letters, digits and punctuation on its baseline, within a word space of each other. */
const TEXT_GLYPH = /^(?:\p{L}+|\p{N}|[.,;:'’])$/u;
const WORD_SPACE_EM = 0.6;

/** The word and the upright glyphs that continue its text (`\\text{if and only if}`), in order. */
function textSpan(first: MathGlyph, after: readonly MathGlyph[]): MathGlyph[] {
  const span = [first];
  for (const g of after) {
    const last = span[span.length - 1]!;
    if (g.fontClass !== 'roman' || !TEXT_GLYPH.test(g.text) || Math.abs(g.baseline - first.baseline) > 0.1 * first.size || g.x0 - last.x1 > WORD_SPACE_EM * first.size) break;
    span.push(g);
  }
  return span;
}

/** The span's text, a space where the text layer has one or the glyphs stand apart. */
function spacedText(span: readonly MathGlyph[]): string {
  return span.map((g, k) => (k > 0 && (g.spaceBefore || g.x0 - span[k - 1]!.x1 > THIN_SPACE_EM.min * g.size) ? ` ${g.text}` : g.text)).join('');
}

/** The most room (ems) amsmath leaves between the signs of a multiple integral, in the text layer's widths. */
const INTEGRAL_GAP_EM = 0.6;

function isIntegral(glyph: MathGlyph): boolean {
  return glyphLatex(glyph.text, glyph.fontClass, glyph.unicodeMapped) === '\\int';
}

interface Binomial {
  open: MathGlyph;
  close: MathGlyph;
  upper: MathGlyph[];
  lower: MathGlyph[];
}

/**
 * `\binom`: tall parentheses of the extension font around two entries one over the other with no
 * rule between them, each entry one cell (a matrix's rows have columns set apart by a quad).
 */
function binomials(glyphs: readonly MathGlyph[], rules: readonly Rule[]): Binomial[] {
  const latexOf = (g: MathGlyph) => glyphLatex(g.text, g.fontClass, g.unicodeMapped);
  const found: Binomial[] = [];
  for (const open of glyphs.filter((g) => g.fontClass === 'extension' && latexOf(g) === '(')) {
    const close = glyphs
      .filter((g) => g.fontClass === 'extension' && latexOf(g) === ')' && g.x0 > open.x1 && Math.abs(g.baseline - open.baseline) < 0.1 * open.size)
      .sort((a, b) => a.x0 - b.x0)[0];
    if (!close) continue;
    const between = glyphs.filter((g) => g.fontClass !== 'extension' && g.x0 >= open.x1 - 0.1 * open.size && g.x1 <= close.x0 + 0.1 * open.size);
    if (between.length < 2 || rules.some((r) => r.x0 >= open.x1 - 1 && r.x1 <= close.x0 + 1)) continue;
    const baselines = [...new Set(between.map((g) => g.baseline))].sort((a, b) => a - b);
    const size = Math.max(...between.map((g) => g.size));
    let split = -1;
    for (let k = 1; k < baselines.length; k++) if (baselines[k]! - baselines[k - 1]! >= 0.8 * size && (split < 0 || baselines[k]! - baselines[k - 1]! > baselines[split]! - baselines[split - 1]!)) split = k;
    if (split < 0) continue;
    const upper = between.filter((g) => g.baseline < baselines[split]!);
    const lower = between.filter((g) => g.baseline >= baselines[split]!);
    if (!isOneCell(upper, size) || !isOneCell(lower, size)) continue;
    found.push({ open, close, upper, lower });
  }
  return found;
}

function isOneCell(glyphs: readonly MathGlyph[], size: number): boolean {
  const sorted = [...glyphs].sort((a, b) => a.x0 - b.x0);
  let end = -Infinity;
  for (const g of sorted) {
    if (end > -Infinity && g.x0 - end > 0.8 * size) return false;
    end = Math.max(end, g.x1);
  }
  return sorted.length > 0;
}

/** Glyphs TeX sets with no space between them unless the author asked for one. */
const NOT_ORDINARY = /^[=<>+\-−±∓×·÷≤≥≈≠≡∼≃≅∝∈∉⊂⊃⊆⊇∪∩→←↔⇒⇐⇔↦,;:.!∗◦•⊕⊗∧∨∣]$/u;

function isOrdinary(glyph: MathGlyph): boolean {
  return glyph.role === 'ordinary' && !NOT_ORDINARY.test(glyph.text) && !(glyph.fontClass === 'roman' && /^\p{L}{2,}$/u.test(glyph.text));
}

/**
 * An author's thin space (`\,`) between two ordinary glyphs, which TeX never spaces itself: a space
 * the text layer put between them, or a gap of about a sixth of an em between the ends of two runs
 * (after the left glyph's scripts).
 */
function thinSpaceBetween(left: Edge, right: MathGlyph): boolean {
  const glyph = left.glyph;
  if (!isOrdinary(glyph) || !isOrdinary(right) || /^[([{⟨]$/u.test(glyph.text) || /^[)\]}⟩]$/u.test(right.text)) return false;
  // A word processor spaces the glyphs of its formulas as it likes: only TeX's gaps are the author's.
  if (glyph.textFont && right.textFont) return false;
  if (right.spaceBefore && left.x1 === glyph.x1) return true;
  const gap = (right.x0 - left.x1) / right.size;
  return left.closesRun && right.opensRun && gap > THIN_SPACE_EM.min && gap < THIN_SPACE_EM.max;
}

/** A sixth of an em, give or take what glyph widths in the text layer put around it. */
const THIN_SPACE_EM = { min: 0.15, max: 0.24 };

/** Where the last token of a row ends: its glyph, and the right edge of the glyph with its scripts. */
interface Edge {
  glyph: MathGlyph;
  x1: number;
  closesRun: boolean;
}

type Take = (glyphTest: (g: MathGlyph) => boolean, ruleTest: (r: Rule) => boolean) => { glyphs: MathGlyph[]; rules: Rule[] };

/**
 * A rule with glyphs over and under it is a fraction; with glyphs on one side only it underlines
 * or overlines them, and the scripts after the last of them (`\underline{x}_{i}`) are its own.
 */
function fraction(rule: Rule, take: Take): { latex: string; base?: MathGlyph } {
  const within = (box: Box) => centreX(box) >= rule.x0 - 1 && centreX(box) <= rule.x1 + 1;
  const y = ruleY(rule);
  const above = take((g) => within(g) && inkY(g) < y, (r) => r !== rule && within(r) && ruleY(r) < y);
  const below = take((g) => within(g) && inkY(g) >= y, (r) => r !== rule && within(r) && ruleY(r) > y);
  take(() => false, (r) => r === rule);
  const numerator = readRow(above.glyphs, above.rules);
  const denominator = readRow(below.glyphs, below.rules);
  const lastOf = (glyphs: readonly MathGlyph[]) => glyphs.reduce<MathGlyph | undefined>((a, x) => (!a || x.x1 > a.x1 ? x : a), undefined);
  if (numerator && !denominator) return { latex: `\\underline{${numerator}}`, base: lastOf(above.glyphs) };
  if (denominator && !numerator) return { latex: `\\overline{${denominator}}`, base: lastOf(below.glyphs) };
  return { latex: `\\frac{${numerator}}{${denominator}}` };
}

/** The radical's rule starts at its top right; what lies under the rule is the radicand. */
function radical(sign: MathGlyph, rules: readonly Rule[], take: Take): string {
  const bar = rules.find(
    (r) => r.x0 >= sign.x0 && r.x0 <= sign.x1 + 0.3 * sign.size && Math.abs(ruleY(r) - sign.baseline) <= 0.4 * sign.size,
  );
  if (!bar) return '\\surd';
  const under = (box: Box) => centreX(box) >= bar.x0 && centreX(box) <= bar.x1;
  const y = ruleY(bar);
  const inside = take((g) => under(g) && g.y1 > y, (r) => r !== bar && under(r) && ruleY(r) > y);
  take(() => false, (r) => r === bar);
  return `\\sqrt{${readRow(inside.glyphs, inside.rules)}}`;
}

/**
 * A display operator's limits: the rows of glyphs over and under it (the extension font hangs the
 * operator from its baseline, about 1.4 em deep), each row grown to the glyphs beside it.
 */
function operatorLimits(op: MathGlyph, others: readonly MathGlyph[]): { upper: Set<MathGlyph>; lower: Set<MathGlyph> } | undefined {
  // An upright operator name (lim, max) stands on the baseline: its limits are over its letters and under the baseline.
  const hung = op.fontClass === 'extension';
  const top = hung ? op.baseline - 0.1 * op.size : op.baseline - 0.75 * op.size;
  const bottom = hung ? op.baseline + 1.2 * op.size : op.baseline + 0.3 * op.size;
  // Limits are centred on their operator: a glyph only touching its side (a subscript before it) is none.
  const overlaps = (g: MathGlyph) => centreX(g) > op.x0 - 0.1 * op.size && centreX(g) < op.x1 + 0.1 * op.size;
  const grow = (seeds: MathGlyph[]) => {
    const row = new Set(seeds);
    let grew = true;
    while (grew) {
      grew = false;
      for (const g of others) {
        if (row.has(g)) continue;
        const near = [...row].some((r) => Math.abs(r.baseline - g.baseline) < 0.3 * r.size && g.x0 < r.x1 + 0.4 * r.size && g.x1 > r.x0 - 0.4 * r.size);
        if (near) {
          row.add(g);
          grew = true;
        }
      }
    }
    return row;
  };
  const upper = grow(others.filter((g) => overlaps(g) && g.baseline < top && g.size < op.size));
  const lower = grow(others.filter((g) => overlaps(g) && g.baseline - g.size * 0.7 > bottom - 0.3 * op.size && g.size < op.size));
  if (upper.size === 0 && lower.size === 0) return undefined;
  return { upper, lower };
}

/**
 * The glyphs (and rules) after a nucleus that are its scripts: from a smaller glyph set off its
 * baseline right after it, up to the next glyph back on the baseline at full size.
 */
function scriptGroup(nucleus: MathGlyph, after: readonly MathGlyph[], rules: readonly Rule[]): { glyphs: Set<MathGlyph>; rules: Set<Rule> } {
  const glyphs = new Set<MathGlyph>();
  const first = after[0];
  const base = scriptBaseline(nucleus);
  const offBaseline = (g: MathGlyph) => Math.abs(g.baseline - base) > SCRIPT_SHIFT * nucleus.size;
  // Below the smallest script size (about 7 points) TeX sets scripts no smaller, only shifted more.
  const smallest = nucleus.size < MIN_SCRIPT_POINTS;
  const belongs = (g: MathGlyph) =>
    g.size <= SCRIPT_SIZE * nucleus.size || (smallest && g.size <= nucleus.size * 1.01 && Math.abs(g.baseline - base) > 0.25 * nucleus.size);
  if (!first || first.x0 > nucleus.x1 + 0.6 * nucleus.size || !offBaseline(first) || !belongs(first)) return { glyphs, rules: new Set() };
  // A rule starting here is a fraction's: what is over and under it is its numerator and denominator.
  if (rules.some((r) => r.x0 <= first.x0 + 0.5 && r.x1 > first.x0)) return { glyphs, rules: new Set() };
  let end = first.x1;
  for (const g of after) {
    if (!belongs(g) || g.x0 > end + 0.6 * nucleus.size) break;
    glyphs.add(g);
    end = Math.max(end, g.x1);
  }
  return { glyphs, rules: new Set(rules.filter((r) => r.x0 >= nucleus.x1 - 1 && r.x1 <= end + 1)) };
}

/**
 * The baseline a glyph's scripts are raised and lowered from: its own, or, for the extension
 * font's glyphs (hung from their baseline, centred on the math axis), the row's it sits on.
 */
function scriptBaseline(glyph: MathGlyph): number {
  if (glyph.fontClass !== 'extension') return glyph.baseline;
  return glyph.baseline + (extensionDepth(glyph.text) / 2 + 0.25) * glyph.size;
}

function scripts(sub: string, sup: string): string {
  return (sub ? `_{${sub}}` : '') + (sup ? `^{${sup}}` : '');
}

/**
 * Spaced tokens: a command never runs into the letter after it. Three full stops (or centred
 * dots) in a row are TeX's `\dots` (`\cdots`), which KaTeX draws as one ellipsis.
 */
function joinTokens(tokens: readonly string[]): string {
  return tokens
    .join(' ')
    .replace(/(?:^|(?<= ))\. \. \.(?= |$)/g, '\\ldots')
    .replace(/(?:^|(?<= ))\\cdot \\cdot \\cdot(?= |$)/g, '\\cdots');
}
