/**
 * What a glyph of a TeX math font stands for in LaTeX. TeX's math fonts (Computer Modern and Latin
 * Modern: math italic, symbols, extension) carry no Unicode map in most PDFs, so the extension
 * font's big operators, radicals and delimiters arrive as the letters of their slots (`X` is the
 * display sum, `s` a tall radical); the other fonts map to Unicode that only needs the command.
 */

export type MathFontClass = 'italic' | 'symbol' | 'extension' | 'blackboard' | 'roman' | 'other';

const ITALIC_FONT = /^(?:CMMI|CMMIB|LMMathItalic|NewTXMI|NewTXBMI|NTXMI|txmi|txbmi|rtxmi|rtxbmi|pxmi|pxbmi|zxmi|zsfmi|MTMI|eurm|LibertineMathMI|LinLibertineMathMI)/i;
/** OpenType math fonts (unicode-math): one font for every math glyph, letters as Unicode's mathematical italic. */
const OPENTYPE_MATH_FONT = /^(?:STIXTwoMath|STIXMath|XITSMath|LatinModernMath|LMMath-|NewCMMath|CambriaMath|Cambria-Math|LibertinusMath|FiraMath|TeXGyre\w*Math|Asana-?Math|GFSNeohellenicMath)/i;
const SYMBOL_FONT = /^(?:CMSY|CMBSY|LMMathSymbols|NewTXSY|txsy|txbsy|rtxsy|pxsy|pxbsy|zxsy|MTSY|MSAM|eusm|LibertineMathSY)/i;
const EXTENSION_FONT = /^(?:CMEX|LMMathExtension|NewTXEXX|txex|txbex|rtxex|pxex|zxex|MTEX)/i;
const BLACKBOARD_FONT = /^(?:MSBM|txmsb|pxmsb|LibertineMathBB)/i;
const ROMAN_FONT = /^(?:CMR|CMBX|CMB\d|CMSS|CMTI|CMSL|CMU|LMRoman|SFRM|SFBX|EUFM|LibertineMathRM)/i;

export function mathFontClass(fontName: string): MathFontClass {
  if (ITALIC_FONT.test(fontName) || OPENTYPE_MATH_FONT.test(fontName)) return 'italic';
  if (SYMBOL_FONT.test(fontName)) return 'symbol';
  if (EXTENSION_FONT.test(fontName)) return 'extension';
  if (BLACKBOARD_FONT.test(fontName)) return 'blackboard';
  if (ROMAN_FONT.test(fontName)) return 'roman';
  return 'other';
}

const SANS_FONT = /^(?:CMSS|LMSans)/i;
const FRAKTUR_FONT = /^(?:EUFM|EUFB)/i;
const SCRIPT_FONT = /^RSFS/i;
const BOLD_ITALIC_FONT = /^(?:CMMIB|NewTXBMI|txbmi|rtxbmi|pxbmi)/i;

/**
 * The math alphabet a text font's letters stand for in a formula (`\\mathsf{F}` from TeX's sans
 * serif, `\\mathbf{E}` from a bold face, `\\boldsymbol{x}` from the bold math italic, `\\mathfrak{g}` from Euler Fraktur), if any: the math italic
 * and symbol fonts have alphabets of their own (`blackboard`, the symbol font's calligraphic capitals).
 */
export function mathAlphabet(fontName: string, bold: boolean, italic: boolean): string | undefined {
  if (FRAKTUR_FONT.test(fontName)) return '\\mathfrak';
  if (SCRIPT_FONT.test(fontName)) return '\\mathscr';
  const fontClass = mathFontClass(fontName);
  if (BOLD_ITALIC_FONT.test(fontName)) return '\\boldsymbol';
  if ((fontClass !== 'roman' && fontClass !== 'other') || italic) return undefined;
  if (SANS_FONT.test(fontName)) return bold ? undefined : '\\mathsf';
  return bold ? '\\mathbf' : undefined;
}

/** Fonts that only math is set in: a run in one of them makes its neighbourhood a formula candidate. */
export function isMathOnlyFont(fontClass: MathFontClass): boolean {
  return fontClass === 'italic' || fontClass === 'symbol' || fontClass === 'extension' || fontClass === 'blackboard';
}

// PDFium maps CMMI's mu to the micro sign (U+00B5), pdf.js to the Greek letter.
const GREEK: Readonly<Record<string, string>> = {
  α: '\\alpha', β: '\\beta', γ: '\\gamma', δ: '\\delta', ϵ: '\\epsilon', ε: '\\varepsilon', ζ: '\\zeta', η: '\\eta',
  θ: '\\theta', ϑ: '\\vartheta', ι: '\\iota', κ: '\\kappa', λ: '\\lambda', μ: '\\mu', µ: '\\mu', ν: '\\nu', ξ: '\\xi', π: '\\pi',
  ϖ: '\\varpi', ρ: '\\rho', ϱ: '\\varrho', σ: '\\sigma', ς: '\\varsigma', τ: '\\tau', υ: '\\upsilon', ϕ: '\\phi',
  φ: '\\varphi', χ: '\\chi', ψ: '\\psi', ω: '\\omega', Γ: '\\Gamma', Δ: '\\Delta', Θ: '\\Theta', Λ: '\\Lambda',
  Ξ: '\\Xi', Π: '\\Pi', Σ: '\\Sigma', Υ: '\\Upsilon', Φ: '\\Phi', Ψ: '\\Psi', Ω: '\\Omega',
  // The increment and ohm signs, which some producers map TeX's upright Delta and Omega to.
  '∆': '\\Delta', 'Ω': '\\Omega',
};

const SYMBOLS: Readonly<Record<string, string>> = {
  '−': '-', '·': '\\cdot', '×': '\\times', '÷': '\\div', '±': '\\pm', '∓': '\\mp', '∗': '*', '◦': '\\circ',
  '•': '\\bullet', '≤': '\\leq', '≥': '\\geq', '≪': '\\ll', '≫': '\\gg', '≠': '\\neq', '≈': '\\approx',
  '≡': '\\equiv', '∼': '\\sim', '≃': '\\simeq', '≅': '\\cong', '∝': '\\propto', '∞': '\\infty', '∂': '\\partial',
  '∇': '\\nabla', '∀': '\\forall', '∃': '\\exists', '¬': '\\neg', '∧': '\\wedge', '∨': '\\vee', '∈': '\\in',
  '∋': '\\ni', '∉': '\\notin', '⊂': '\\subset', '⊃': '\\supset', '⊆': '\\subseteq', '⊇': '\\supseteq',
  '∪': '\\cup', '∩': '\\cap', '∅': '\\emptyset', '→': '\\to', '←': '\\leftarrow', '↔': '\\leftrightarrow',
  '⇒': '\\Rightarrow', '⇐': '\\Leftarrow', '⇔': '\\Leftrightarrow', '↦': '\\mapsto', '⟨': '\\langle',
  '⟩': '\\rangle', '∥': '\\|', '′': '\\prime', '⊕': '\\oplus', '⊗': '\\otimes', '…': '\\ldots', '⋯': '\\cdots',
  '⋅': '\\cdot', 'ℓ': '\\ell', 'ℏ': '\\hbar', 'ı': '\\imath', 'ȷ': '\\jmath', '℘': '\\wp', 'ℜ': '\\Re',
  'ℑ': '\\Im', 'ℵ': '\\aleph', '⌊': '\\lfloor', '⌋': '\\rfloor', '⌈': '\\lceil', '⌉': '\\rceil', '{': '\\{',
  '}': '\\}', '∑': '\\sum', '∏': '\\prod', '∫': '\\int', '∮': '\\oint', '⋃': '\\bigcup', '⋂': '\\bigcap',
  '#': '\\#', '%': '\\%', '&': '\\&', '_': '\\_', '$': '\\$', '\\': '\\backslash',
  '≢': '\\not\\equiv', '≰': '\\nleq', '≱': '\\ngeq', '⊄': '\\not\\subset', '⊈': '\\nsubseteq', '≁': '\\nsim', '∤': '\\nmid',
  '∦': '\\nparallel', '∌': '\\not\\ni', '≮': '\\not<', '≯': '\\not>',
};

const CONTROL_PICTURES = 0x2400;

/**
 * The extension font's text with its slots below 32 (and dvips's copies of them moved to 161-170
 * and 173-194) as Control Pictures, which cleaning keeps: they are big delimiters, not controls.
 */
export function visibleExtensionSlots(text: string): string {
  return text.replace(/[\u0000-\u001F\u00A1-\u00AA\u00AD-\u00C2]/g, (char) => {
    const code = char.charCodeAt(0);
    const slot = code < 0x20 ? code : code <= 0xaa ? code - 0xa1 : code - 0xa3;
    return String.fromCharCode(CONTROL_PICTURES + slot);
  });
}

/** The extension font's slots that pdf.js leaves as letters: big operators and delimiter pieces. */
const EXTENSION: Readonly<Record<string, string>> = {
  P: '\\sum', X: '\\sum', Q: '\\prod', Y: '\\prod', R: '\\int', Z: '\\int', S: '\\bigcup', '[': '\\bigcup',
  T: '\\bigcap', '\\': '\\bigcap', H: '\\oint', I: '\\oint', '`': '\\coprod', a: '\\coprod', V: '\\bigwedge',
  '^': '\\bigwedge', W: '\\bigvee', _: '\\bigvee', N: '\\bigotimes', O: '\\bigotimes', L: '\\bigoplus',
  M: '\\bigoplus', J: '\\bigodot', K: '\\bigodot', '!': ')', '"': '[', '#': ']', '(': '\\{', ')': '\\}',
  '*': '\\langle', '+': '\\rangle', '0': '(', '1': ')', '2': '[', '3': ']', '8': '\\{', '9': '\\}',
};

/**
 * The extension font's delimiters in the slots that come as control codes (both parsers give an
 * unmapped glyph as its code), written as Control Pictures (U+2400 + slot) by
 * `visibleExtensionSlots`: big, Big and bigg parentheses, brackets, floors, ceilings, braces,
 * angle brackets, bars and slashes. The printable slots hold the Bigg and Big sizes.
 */
const LOW_SLOT_DELIMITERS = ['(', ')', '[', ']', '\\lfloor', '\\rfloor', '\\lceil', '\\rceil', '\\{', '\\}', '\\langle', '\\rangle', '|', '\\|', '/', '\\backslash',
  '(', ')', '(', ')', '[', ']', '\\lfloor', '\\rfloor', '\\lceil', '\\rceil', '\\{', '\\}', '\\langle', '\\rangle', '/', '\\backslash'];
/** The delimiters' commands as the characters they draw. */
const DELIMITER_TEXT: Readonly<Record<string, string>> = {
  '\\lfloor': '⌊', '\\rfloor': '⌋', '\\lceil': '⌈', '\\rceil': '⌉', '\\{': '{', '\\}': '}', '\\langle': '⟨', '\\rangle': '⟩', '\\|': '‖', '\\backslash': '\\',
};

/**
 * An extension-font run's Control Pictures (`visibleExtensionSlots`) as the delimiters they draw,
 * where the run is left in prose: they stand in for glyphs only while math is rebuilt.
 */
export function extensionSlotsAsText(text: string): string {
  return text.replace(/[\u2400-\u241F]/g, (char) => {
    const latex = LOW_SLOT_DELIMITERS[char.charCodeAt(0) - CONTROL_PICTURES] ?? '';
    return DELIMITER_TEXT[latex] ?? latex;
  });
}

const DELIMITERS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(LOW_SLOT_DELIMITERS.map((latex, slot) => [String.fromCharCode(CONTROL_PICTURES + slot), latex])),
  $: '\\lfloor', '%': '\\rfloor', '&': '\\lceil', "'": '\\rceil', ',': '/', '-': '\\backslash', '.': '/', '/': '\\backslash',
  D: '\\langle', E: '\\rangle', h: '[', i: ']', j: '\\lfloor', k: '\\rfloor', l: '\\lceil', m: '\\rceil', n: '\\{', o: '\\}',
};
/** The bottoms and middles of delimiters built from pieces (their tops stand for them) and the pieces that extend them. */
const DELIMITER_PIECES = new Set(['4', '5', '6', '7', ':', ';', '<', '=', '>', '?', '@', 'A', 'B', 'C']);

/** Big operators set with their limits above and below (the display slots); integrals keep theirs beside. */
const DISPLAY_OPERATOR_SLOTS = new Set(['X', 'Y', '[', '\\', 'a', '^', '_', 'O', 'M', 'K']);
/** Unicode's pieces of tall delimiters: the tops (`⎛`) stand for the delimiter, the rest add nothing. */
const UNICODE_DELIMITER_TOPS: Readonly<Record<string, string>> = { '⎛': '(', '⎞': ')', '⎡': '[', '⎤': ']', '⎧': '\\{', '⎫': '\\}', '⌈': '\\lceil', '⌉': '\\rceil' };
const UNICODE_DELIMITER_PIECES = new Set([...'⎜⎝⎟⎠⎢⎣⎥⎦⎨⎩⎪⎬⎭⎮']);
/** Integrals keep their limits beside them, in a display too. */
const INTEGRALS = new Set(['∫', '∮', '∬', '∭']);
/** Radicals, big to biggest, and the top of one built from pieces; its bottom and middle pieces add nothing. */
const RADICAL_SLOTS = new Set(['p', 'q', 'r', 's', 'v']);
const RADICAL_PIECES = new Set(['t', 'u']);

/** How deep (ems) the extension font's glyphs hang below their baseline: radicals, text and display operators. */
const EXTENSION_DEPTH: Readonly<Record<string, number>> = {
  p: 1.2, q: 1.8, r: 2.4, s: 3, P: 1, Q: 1, R: 1.1, X: 1.5, Y: 1.5, Z: 2.2,
  // The text-size unions, intersections, circled operators and the rest, as deep as the text-size sum.
  S: 1, T: 1, H: 1, '`': 1, V: 1, W: 1, N: 1, L: 1, J: 1,
};

/** The extension font's wide accents (`\\widehat`, `\\widetilde`, three widths each): set over their letters, hanging nowhere. */
const WIDE_ACCENT_SLOTS: Readonly<Record<string, string>> = { b: '\\widehat', c: '\\widehat', d: '\\widehat', e: '\\widetilde', f: '\\widetilde', g: '\\widetilde' };

export function extensionDepth(text: string): number {
  if (WIDE_ACCENT_SLOTS[text]) return 0;
  return EXTENSION_DEPTH[text] ?? 1.8;
}
const BIG_OPERATORS = new Set(['\\sum', '\\prod', '\\int', '\\oint', '\\bigcup', '\\bigcap', '\\coprod', '\\bigwedge', '\\bigvee', '\\bigotimes', '\\bigoplus', '\\bigodot']);

/** Spacing accents (as TeX sets them, a glyph of their own above the letter) and their commands. */
const ACCENTS: Readonly<Record<string, string>> = {
  '¨': '\\ddot', '˙': '\\dot', '¯': '\\bar', 'ˉ': '\\bar', 'ˆ': '\\hat', '˜': '\\tilde', 'ˇ': '\\check', '´': '\\acute',
  '`': '\\grave', '˘': '\\breve', '⃗': '\\vec', '˚': '\\mathring',
};
/** The same as combining marks, when a producer (or accent composition) put them on the letter. */
const COMBINING_ACCENTS: Readonly<Record<string, string>> = {
  '\u0308': '\\ddot', '\u0307': '\\dot', '\u0304': '\\bar', '\u0302': '\\hat', '\u0303': '\\tilde', '\u030C': '\\check',
  '\u0301': '\\acute', '\u0300': '\\grave', '\u0306': '\\breve', '\u20D7': '\\vec', '\u030A': '\\mathring',
};

/** Operator names TeX sets upright that KaTeX knows as commands. */
const OPERATOR_NAMES = new Set([
  'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'sinh', 'cosh', 'tanh', 'coth', 'arcsin', 'arccos', 'arctan', 'log', 'ln',
  'lg', 'exp', 'lim', 'liminf', 'limsup', 'sup', 'inf', 'max', 'min', 'arg', 'det', 'dim', 'ker', 'deg', 'gcd', 'hom',
  'Pr', 'mod',
]);

/** Operator names that take limits (`\\lim_{n \\to \\infty}`), set under them in a display. */
const LIMIT_NAMES = new Set(['lim', 'liminf', 'limsup', 'sup', 'inf', 'max', 'min', 'det', 'gcd', 'Pr']);

/** An operator's name TeX sets upright in a formula (`log`, `sin`, `max`). */
export function isOperatorName(word: string): boolean {
  return OPERATOR_NAMES.has(word);
}

/** A word in a formula that is prose (`\\text{if}`), not an operator's name (`sin`, or an author's `Var`, `diag`). */
export function isProseWord(word: string): boolean {
  return !OPERATOR_NAMES.has(word) && !isShortName(word);
}

/** `Var`, `Cov`, `diag`, `tr`: short upright names authors declare as operators. */
function isShortName(word: string): boolean {
  return word.length <= 4 && /^\p{Lu}?\p{Ll}+$/u.test(word) && !COMMON_WORDS.has(word.toLowerCase());
}

const COMMON_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'if', 'for', 'of', 'in', 'on', 'to', 'is', 'are', 'as', 'at', 'be', 'by', 'with', 'when', 'then', 'else', 'all', 'any', 'some', 'where', 'so', 'that', 'this', 'it', 'we', 'not', 'but']);

export type GlyphRole = 'ordinary' | 'display-operator' | 'operator' | 'radical' | 'accent' | 'piece';

export function glyphRole(text: string, fontClass: MathFontClass, unicodeMapped = false): GlyphRole {
  if (fontClass === 'extension' && !unicodeMapped) {
    if (RADICAL_SLOTS.has(text)) return 'radical';
    if (RADICAL_PIECES.has(text) || DELIMITER_PIECES.has(text)) return 'piece';
    if (DISPLAY_OPERATOR_SLOTS.has(text)) return 'display-operator';
    if (WIDE_ACCENT_SLOTS[text]) return 'accent';
    if (BIG_OPERATORS.has(EXTENSION[text] ?? '')) return 'operator';
    return 'ordinary';
  }
  if (UNICODE_DELIMITER_PIECES.has(text)) return 'piece';
  // newtx's extension font maps its glyphs to Unicode: its big operators hang from the baseline as TeX's do.
  if (fontClass === 'extension' && BIG_OPERATORS.has(SYMBOLS[text] ?? '')) return INTEGRALS.has(text) ? 'operator' : 'display-operator';
  if (text === '√') return 'radical';
  // A text font's sum or product (a word processor's formula) takes its limits over and under it.
  if (fontClass === 'roman' && BIG_OPERATORS.has(SYMBOLS[text] ?? '') && !INTEGRALS.has(text)) return 'display-operator';
  // lim, max, sup and the like take their limits under them in a display.
  if (fontClass === 'roman' && LIMIT_NAMES.has(text)) return 'display-operator';
  // A combining mark standing alone is an accent set as a glyph of its own, in whatever font.
  if ((fontClass !== 'italic' && ACCENTS[text]) || COMBINING_ACCENTS[text]) return 'accent';
  if (BIG_OPERATORS.has(SYMBOLS[text] ?? '')) return 'operator';
  return 'ordinary';
}

export function accentCommand(text: string, fontClass?: MathFontClass, unicodeMapped = false): string | undefined {
  if (fontClass === 'extension' && !unicodeMapped) return WIDE_ACCENT_SLOTS[text];
  return ACCENTS[text] ?? COMBINING_ACCENTS[text];
}

/** TeX's `\\not` slash, as a combining mark. */
const NOT_SLASH = '\u0338';

/** One glyph (or an upright word) as LaTeX. */
export function glyphLatex(text: string, fontClass: MathFontClass, unicodeMapped = false): string {
  if (fontClass === 'extension' && !unicodeMapped) return EXTENSION[text] ?? DELIMITERS[text] ?? SYMBOLS[text] ?? text;
  if (fontClass === 'roman' && /^\p{L}{2,}$/u.test(text)) return OPERATOR_NAMES.has(text) ? `\\${text}` : `\\operatorname{${text}}`;
  // Unicode's mathematical alphanumerics (𝑥, 𝜋, and Planck's ℎ, of an OpenType math font) are their letters in a math font.
  const plain = text.replace(/[\u{1D400}-\u{1D7FF}\u210E]/gu, (char) => char.normalize('NFKC'));
  // A negated relation decomposes into the relation and a slash: look the whole up first.
  const whole = SYMBOLS[plain] ?? GREEK[plain];
  if (whole) return whole;
  const [base = '', ...marks] = [...plain.normalize('NFD')];
  let latex = GREEK[base] ?? SYMBOLS[base] ?? UNICODE_DELIMITER_TOPS[base] ?? base;
  if (fontClass === 'blackboard' && /^[A-Z]$/.test(base)) latex = `\\mathbb{${base}}`;
  // The symbol font's capitals are TeX's calligraphic alphabet.
  if (fontClass === 'symbol' && /^[A-Z]$/.test(base)) latex = `\\mathcal{${base}}`;
  for (const mark of marks) {
    if (mark === NOT_SLASH) latex = `\\not ${latex}`;
    const command = COMBINING_ACCENTS[mark];
    if (command) latex = `${command}{${latex}}`;
  }
  return latex;
}
