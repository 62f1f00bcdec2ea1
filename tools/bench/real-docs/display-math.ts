/**
 * Display formulas of a LaTeX source as math checks: each row of a multi-row environment on its
 * own, numbering and labels removed, and only when every control sequence is standard LaTeX or
 * amsmath (one a correct rendering writes the same way, and KaTeX renders) and the document does
 * not redefine it.
 */

import { splitTopLevel } from './tex-text.js';

/** Standard LaTeX, amsmath and amssymb math: what a formula may use to be checked. */
const STANDARD = new Set(
  `alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
  Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
  frac dfrac tfrac sqrt sum prod coprod int iint iiint oint bigcup bigcap bigoplus bigotimes bigvee bigwedge lim limsup liminf sup inf max min det exp log ln lg
  sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan arg deg dim gcd hom ker Pr mod bmod pmod
  left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle
  mathrm mathbf mathit mathcal mathbb mathfrak mathsf mathtt text mbox textrm textbf textit operatorname rm bf it cal
  hat bar tilde vec dot ddot check breve acute grave overline underline widehat widetilde overbrace underbrace overrightarrow overleftarrow
  cdot cdots ldots dots vdots ddots times div pm mp ast star circ bullet oplus ominus otimes oslash odot wedge vee cap cup setminus
  leq geq le ge neq ne approx equiv sim simeq cong propto ll gg subset supset subseteq supseteq in notin ni prec succ preceq succeq mid parallel perp
  to rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow mapsto longrightarrow longleftarrow Longrightarrow Longleftarrow longmapsto uparrow downarrow iff implies
  infty partial nabla forall exists neg emptyset varnothing aleph hbar ell Re Im wp angle prime backslash
  langle rangle lfloor rfloor lceil rceil lbrace rbrace vert Vert lvert rvert lVert rVert
  quad qquad displaystyle textstyle limits nolimits binom tbinom dbinom choose stackrel overset underset substack
  begin end cases matrix pmatrix bmatrix vmatrix Vmatrix aligned split gathered array
  leqslant geqslant lesssim gtrsim triangleq triangle square Box mathbin mathrel mathop phantom`.split(/\s+/),
);
/** Spacing and numbering that a rendering need not repeat. */
const NUMBERING = /\\(?:label|tag\*?|eqref)\s*\{[^}]*\}|\\(?:nonumber|notag|displaybreak(?:\[\d\])?|allowdisplaybreaks)\b/g;
/** Environments whose columns come in pairs (right-aligned, then left-aligned), one formula to a pair. */
const PAIRED_COLUMNS = new Set(['align', 'align*', 'flalign', 'flalign*', 'alignat', 'alignat*']);
/** Multi-row environments: each row is a formula of its own. */
const MULTI_ROW = new Set(['align', 'align*', 'gather', 'gather*', 'multline', 'multline*', 'eqnarray', 'eqnarray*', 'flalign', 'flalign*', 'alignat', 'alignat*']);

/** The formulas of one display, ready to check: numbering and trailing punctuation gone, each row alone. */
export function displayRows(environment: string, body: string): string[] {
  let source = body.replace(NUMBERING, ' ');
  if (environment.startsWith('alignat')) source = source.replace(/^\s*\{\d+\}/, '');
  // An equation that is one split (or aligned, gathered) is rows as an align is.
  const inner = /^\s*\\begin\{(split|aligned|gathered)\}([\s\S]*)\\end\{\1\}\s*[.,;]?\s*$/.exec(source);
  if (inner && !/\\begin\{(?:split|aligned|gathered)\}/.test(inner[2]!)) return displayRows(inner[1] === 'gathered' ? 'gather' : 'align', inner[2]!);
  const rows = MULTI_ROW.has(environment) ? topLevelRows(source) : [source];
  // In align-like environments every second `&` starts another formula of the same row.
  const formulas = PAIRED_COLUMNS.has(environment) ? rows.flatMap((row) => splitTopLevel(row, '&').reduce<string[]>((out, part, i) => (i % 2 === 0 ? [...out, part] : [...out.slice(0, -1), `${out.at(-1)}&${part}`]), [])) : rows;
  return formulas.map(removeAlignment).map(tidy).filter((row) => row.length > 0);
}

/** Rows at `\\\\`, each without the `*` or `[2pt]` that may follow its break. */
function topLevelRows(source: string): string[] {
  return splitTopLevel(source, '\\\\').map((row, i) => (i === 0 ? row : row.replace(/^\*?\s*(?:\[[^\]]*\])?/, '')));
}

/** Alignment points (`&` outside braces and nested environments) removed. */
function removeAlignment(row: string): string {
  return splitTopLevel(row, '&').join(' ');
}

/** Whitespace collapsed; spacing and punctuation at either end removed (the sentence's, not the formula's). */
function tidy(row: string): string {
  let out = row.replace(/\s+/g, ' ').trim();
  for (;;) {
    const next = out.replace(/^(?:\\[,;:!]|\\q?quad|~)\s*/, '').replace(/\s*(?:[.,;]|\\[,;:!]|\\q?quad|~|\\\\)$/, '').trim();
    if (next === out) return out;
    out = next;
  }
}

/**
 * Whether a formula is checkable: long enough to say something, only standard control sequences
 * the document leaves alone, and none of the constructs whose rendering differs between tools.
 */
export function isStandardFormula(formula: string, redefined: ReadonlySet<string>): boolean {
  if (formula.replace(/\s/g, '').length < 6 || formula.length > 400) return false;
  if (/\\(?:begin|end)\{(?![a-zA-Z]*matrix\}|cases\}|aligned\}|split\}|gathered\}|array\})/.test(formula)) return false;
  if (/#|\\FOLIO|\\intertext|\\shortintertext|\$|%/.test(formula)) return false;
  for (const match of formula.matchAll(/\\([a-zA-Z]+)/g)) {
    const name = match[1]!;
    if (!STANDARD.has(name) || redefined.has(name)) return false;
  }
  return true;
}
