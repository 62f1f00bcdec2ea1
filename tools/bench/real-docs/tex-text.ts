/**
 * LaTeX source text as it prints, for the few constructs whose printed form is certain: plain words,
 * emphasis and font switches, TeX's quote and dash ligatures, escaped specials and accents. Anything
 * else (a citation, a reference, inline math, a logo, a forced line break, small capitals, a macro
 * the document defines) may print otherwise, so the text is refused rather than guessed.
 */

/** Macros whose one argument prints as it is (in another font). */
const WRAPPERS = new Set(['emph', 'textbf', 'textit', 'textrm', 'textsf', 'texttt', 'textup', 'textmd', 'textnormal', 'textsl', 'mbox', 'underline']);
/** Font switches that print nothing themselves. */
const SWITCHES = new Set([
  'em', 'bf', 'it', 'rm', 'sf', 'tt', 'sl', 'itshape', 'bfseries', 'upshape', 'mdseries', 'normalfont', 'rmfamily', 'sffamily', 'ttfamily', 'slshape',
  'noindent', 'indent', 'relax', 'nobreak', 'allowbreak', 'linebreak', 'sloppy', 'fussy', 'unskip', 'ignorespaces', 'leavevmode',
]);
const LETTERS: Record<string, string> = { ss: 'ß', o: 'ø', O: 'Ø', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', aa: 'å', AA: 'Å', l: 'ł', L: 'Ł', i: 'ı', j: 'ȷ' };
/** Accent macros and the combining mark each puts on its argument. */
const ACCENTS: Record<string, string> = {
  "'": '\u0301', '`': '\u0300', '^': '\u0302', '"': '\u0308', '~': '\u0303', '=': '\u0304', '.': '\u0307',
  u: '\u0306', v: '\u030c', H: '\u030b', c: '\u0327', k: '\u0328', r: '\u030a', d: '\u0323', b: '\u0331',
};
const ESCAPED: Record<string, string> = { '&': '&', '%': '%', $: '$', '#': '#', _: '_', ' ': ' ', '@': '', '/': '', '-': '' };
/** Characters that print otherwise in TeX's text fonts, or are markup: refused outside their macros. */
const REFUSED = new Set(['$', '^', '_', '|', '<', '>', '"', '#', '&', '\\']);

/** The matching close brace of the group opening at `open` (`src[open] === '{'`), or -1. */
export function groupEnd(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits at `separator` (`\\\\` or `&`) outside braces and nested environments; an escaped `\\&` is no separator. */
export function splitTopLevel(source: string, separator: '\\\\' | '&'): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    if (source.startsWith('\\begin{', i)) depth++;
    else if (source.startsWith('\\end{', i)) depth--;
    const ch = source[i];
    if (depth === 0 && source.startsWith(separator, i)) {
      parts.push(source.slice(start, i));
      i += separator.length - 1;
      start = i + 1;
    } else if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
  }
  parts.push(source.slice(start));
  return parts;
}

/** The argument at `at` (after spaces): a braced group's inside, or one character or control sequence. */
export function readArgument(src: string, at: number): { text: string; end: number } | undefined {
  let i = at;
  while (src[i] === ' ' || src[i] === '\n' || src[i] === '\t') i++;
  if (i >= src.length) return undefined;
  if (src[i] === '{') {
    const close = groupEnd(src, i);
    return close < 0 ? undefined : { text: src.slice(i + 1, close), end: close + 1 };
  }
  if (src[i] === '\\') {
    const name = /^\\([a-zA-Z]+|.)/.exec(src.slice(i, i + 64))?.[0] ?? '\\';
    return { text: name, end: i + name.length };
  }
  return { text: src[i]!, end: i + 1 };
}

/** The printed text of `src`, whitespace collapsed, or undefined when it holds anything whose print is uncertain. */
export function texToText(src: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '\\') {
      const letters = /^\\([a-zA-Z]+)/.exec(src.slice(i, i + 64));
      if (letters) {
        const name = letters[1]!;
        let next = i + letters[0].length;
        if (WRAPPERS.has(name)) {
          const argument = readArgument(src, next);
          if (!argument || !src.slice(next, argument.end).trimStart().startsWith('{')) return undefined;
          const inner = texToText(argument.text);
          if (inner === undefined) return undefined;
          out += inner;
          i = argument.end;
          continue;
        }
        if (SWITCHES.has(name) || LETTERS[name] !== undefined) {
          if (LETTERS[name]) out += LETTERS[name];
          // a control word swallows the spaces after it; `{}` ends it without a space
          while (src[next] === ' ' || src[next] === '\n') next++;
          if (src.startsWith('{}', next)) next += 2;
          i = next;
          continue;
        }
        const mark = ACCENTS[name];
        if (mark === undefined) return undefined;
        const accented = accent(src, next, mark);
        if (!accented) return undefined;
        out += accented.text;
        i = accented.end;
        continue;
      }
      const symbol = src[i + 1];
      if (symbol === undefined) return undefined;
      if (ESCAPED[symbol] !== undefined) {
        out += ESCAPED[symbol];
        i += 2;
        continue;
      }
      const mark = ACCENTS[symbol];
      if (mark === undefined) return undefined;
      const accented = accent(src, i + 2, mark);
      if (!accented) return undefined;
      out += accented.text;
      i = accented.end;
      continue;
    }
    if (ch === '{' || ch === '}') {
      i++;
    } else if (ch === '~') {
      out += ' ';
      i++;
    } else if (ch === '-') {
      const run = /^-{1,3}/.exec(src.slice(i, i + 3))![0];
      out += run.length === 3 ? '\u2014' : run.length === 2 ? '\u2013' : '-';
      i += run.length;
    } else if (ch === '`' || ch === "'") {
      const double = src[i + 1] === ch;
      out += ch === '`' ? (double ? '\u201c' : '\u2018') : double ? '\u201d' : '\u2019';
      i += double ? 2 : 1;
    } else if (REFUSED.has(ch) || (ch === '!' && src[i + 1] === '`') || (ch === '?' && src[i + 1] === '`')) {
      return undefined;
    } else {
      out += ch;
      i++;
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

function accent(src: string, at: number, mark: string): { text: string; end: number } | undefined {
  const argument = readArgument(src, at);
  if (!argument) return undefined;
  let base = argument.text.trim();
  if (base === '\\i' || base === '\\j') base = base[1]!;
  if (!/^\p{L}$/u.test(base)) return undefined;
  return { text: `${base}${mark}`.normalize('NFC'), end: argument.end };
}
