/**
 * A LaTeX (or plain TeX) source read into what the benchmark's checks are made from: its
 * paragraphs of running text in order, its display formulas with the text just before each, and
 * its `tabular`s. Verbatim material (environments, `\verb`, short-verb characters) is masked first,
 * so the LaTeX a manual shows as code is never taken for what it prints; then comments go and
 * local `\input`/`\include` files are read in.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { groupEnd } from './tex-text.js';

export interface DisplayFormula {
  environment: string;
  body: string;
  /** The source just before it, back to the previous display (at most 600 characters). */
  before: string;
}

interface TexDocument {
  /** Paragraphs of running text (raw LaTeX); `undefined` stands for anything else between them (a heading, a float, a list). */
  paragraphs: (string | undefined)[];
  displays: DisplayFormula[];
  /** The inside of each `tabular`-like environment. */
  tabulars: string[];
  /** Control sequences the source defines or redefines (without the backslash). */
  defined: Set<string>;
  /** Packages it loads. */
  packages: Set<string>;
}

const VERBATIM_ENVIRONMENTS = [
  'verbatim', 'verbatim*', 'Verbatim', 'BVerbatim', 'LVerbatim', 'lstlisting', 'minted', 'alltt', 'comment', 'filecontents', 'filecontents*',
  'example', 'sourcecode', 'code', 'macrocode', 'lstcode', 'tcblisting', 'latexcode', 'LTXexample', 'dispExample', 'verbatimtab',
];
const DISPLAY_ENVIRONMENTS = [
  'equation', 'equation*', 'align', 'align*', 'gather', 'gather*', 'multline', 'multline*', 'eqnarray', 'eqnarray*', 'displaymath',
  'flalign', 'flalign*', 'alignat', 'alignat*',
];
const TABULAR_ENVIRONMENTS = ['tabular', 'tabular*', 'tabularx', 'longtable', 'tabulary'];
/** Environments whose content is not running text at its place: floats, pictures, lists of references. */
const SKIPPED_ENVIRONMENTS = [
  'figure', 'figure*', 'table', 'table*', 'wrapfigure', 'sidewaysfigure', 'sidewaystable', 'tikzpicture', 'picture', 'thebibliography',
  'algorithm', 'algorithmic', 'tabbing', 'titlepage', 'deluxetable', 'deluxetable*', 'array', 'math', 'keywords', 'CCSXML', 'teaserfigure',
];
const SECTIONING = /\\(?:part|chapter|section|subsection|subsubsection|paragraph|subparagraph|caption|title|author|date|address|affiliation|maketitle|tableofcontents|bibliography|bibliographystyle|appendix|item|bibitem|newpage|clearpage|par|bigskip|medskip|smallskip|vspace|vskip|centerline|begin|end)\b/;
const PLACEHOLDER = '\\FOLIOVERBATIM ';

/** Reads a source file with its local inputs, verbatim masked and comments removed. */
export async function readTexSource(file: string, depth = 0): Promise<string> {
  let src = cleanTexSource(await readFile(file, 'utf8'));
  if (depth > 4) return src;
  const dir = path.dirname(file);
  const inputs = [...src.matchAll(/\\(?:input|include)\s*(?:\{([^}]+)\}|([\w./-]+))/g)];
  for (const match of inputs.reverse()) {
    const name = (match[1] ?? match[2] ?? '').trim();
    const candidates = [path.join(dir, name), path.join(dir, `${name}.tex`)];
    const found = candidates.find((candidate) => existsSync(candidate) && !candidate.endsWith('.sty') && !candidate.endsWith('.cls'));
    if (!found || path.resolve(found) === path.resolve(file)) continue;
    const inner = await readTexSource(found, depth + 1);
    src = src.slice(0, match.index) + inner + src.slice(match.index + match[0].length);
  }
  return src;
}

/** The source with verbatim material masked, then comments removed. */
export function cleanTexSource(src: string): string {
  return stripComments(maskVerbatim(src));
}

/** Verbatim environments, `\verb`, `\lstinline` and declared short-verb characters become a placeholder that prints nothing certain. */
function maskVerbatim(src: string): string {
  let out = src;
  for (const name of VERBATIM_ENVIRONMENTS) {
    const escaped = name.replace(/\*/g, '\\*');
    out = out.replace(new RegExp(`\\\\begin\\{${escaped}\\}[\\s\\S]*?\\\\end\\{${escaped}\\}`, 'g'), PLACEHOLDER);
  }
  // plain TeX's and doc's verbatim blocks
  out = out.replace(/\\begintt[\s\S]*?\\endtt/g, PLACEHOLDER).replace(/\\verbatim\b[\s\S]*?\\endverbatim/g, PLACEHOLDER);
  out = out.replace(/\\(?:verb|lstinline)\*?([^a-zA-Z\s{])[^\n]*?\1/g, PLACEHOLDER).replace(/\\lstinline\{[^}\n]*\}/g, PLACEHOLDER);
  for (const match of src.matchAll(/\\(?:MakeShortVerb|DefineShortVerb)\*?\s*\{?\\(.)\}?/g)) {
    const char = match[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`${char}[^\\n]*?${char}`, 'g'), PLACEHOLDER);
  }
  return out;
}

/** Removes `%` comments (an unescaped `%` to the end of its line, and the line break after it). */
function stripComments(src: string): string {
  return src.replace(/(^|[^\\])((?:\\\\)*)%[^\n]*\n?/g, '$1$2');
}

/** Control sequences a source defines: what a check may not assume prints as standard LaTeX. */
function definedNames(src: string): Set<string> {
  const names = new Set<string>();
  const patterns = [
    /\\(?:re)?newcommand\*?\s*\{?\s*\\([a-zA-Z]+)/g,
    /\\(?:providecommand|DeclareRobustCommand|DeclareMathOperator|DeclarePairedDelimiter|DeclareMathSymbol|DeclareMathAlphabet)\*?\s*\{?\s*\\([a-zA-Z]+)/g,
    /\\(?:def|edef|gdef|xdef|let|futurelet|chardef|mathchardef)\s*\\([a-zA-Z]+)/g,
    /\\(?:re)?newenvironment\*?\s*\{([a-zA-Z*]+)\}/g,
  ];
  for (const pattern of patterns) for (const match of src.matchAll(pattern)) names.add(match[1]!);
  return names;
}

function packagesOf(src: string): Set<string> {
  const packages = new Set<string>();
  for (const match of src.matchAll(/\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}/g)) {
    for (const name of match[1]!.split(',')) packages.add(name.trim());
  }
  return packages;
}

/** Where the inside of the environment `name` begun at `from` lies, and where it ends (after its `\end{name}`), nested ones counted; undefined when it does not end. */
function environmentEnd(src: string, name: string, from: number): { inner: number; innerEnd: number; end: number } | undefined {
  const begin = `\\begin{${name}}`;
  const end = `\\end{${name}}`;
  let depth = 0;
  let i = from;
  const inner = from + begin.length;
  while (i < src.length) {
    const nextBegin = src.indexOf(begin, i);
    const nextEnd = src.indexOf(end, i);
    if (nextEnd < 0) return undefined;
    if (nextBegin >= 0 && nextBegin < nextEnd) {
      depth++;
      i = nextBegin + begin.length;
    } else {
      depth--;
      if (depth === 0) return { inner, innerEnd: nextEnd, end: nextEnd + end.length };
      i = nextEnd + end.length;
    }
  }
  return undefined;
}

/** Skips the `[optional]` and `{required}` arguments at `at`: `count` braced ones at most. */
function skipArguments(src: string, at: number, count: number): number {
  let i = at;
  for (;;) {
    let j = i;
    while (src[j] === ' ' || src[j] === '\n') j++;
    if (src[j] === '[') {
      const close = src.indexOf(']', j);
      if (close < 0) return i;
      i = close + 1;
    } else if (src[j] === '{' && count > 0) {
      const close = groupEnd(src, j);
      if (close < 0) return i;
      i = close + 1;
      count--;
    } else return i;
  }
}

const BREAK = '\n\n\\FOLIOBREAK\n\n';
const DISPLAY = '\\FOLIODISPLAY ';

export function readTexDocument(src: string): TexDocument {
  const defined = definedNames(src);
  const packages = packagesOf(src);
  const begin = src.indexOf('\\begin{document}');
  const finish = src.lastIndexOf('\\end{document}');
  let body = begin >= 0 ? src.slice(begin + '\\begin{document}'.length, finish > begin ? finish : undefined) : src.replace(/\\bye\b[\s\S]*$/, '');
  const displays: DisplayFormula[] = [];
  const tabulars: string[] = [];

  // Tabulars first (floats holding them are dropped next), then floats, then display math.
  body = replaceEnvironments(body, TABULAR_ENVIRONMENTS, (name, inner) => {
    const argumentsEnd = skipArguments(inner, 0, name === 'tabular' || name === 'longtable' ? 1 : 2);
    tabulars.push(inner.slice(argumentsEnd));
    return BREAK;
  });
  body = replaceEnvironments(body, SKIPPED_ENVIRONMENTS, () => BREAK);
  body = replaceDisplays(body, displays);
  // A footnote's text is printed elsewhere: the sentence around its mark is not checked.
  body = replaceFootnotes(body);
  // Every other environment boundary, heading, list item and vertical skip ends a paragraph.
  body = replaceCommands(body);
  const paragraphs: (string | undefined)[] = [];
  for (const block of body.split(/\n[ \t]*\n/)) {
    const text = block.trim();
    if (!text) continue;
    if (text === '\\FOLIOBREAK' || !/[a-zA-Z]{2}/.test(text.replace(/\\FOLIO[A-Z]+/g, ''))) {
      if (paragraphs.at(-1) !== undefined) paragraphs.push(undefined);
      continue;
    }
    paragraphs.push(text);
  }
  return { paragraphs, displays, tabulars, defined, packages };
}

function replaceEnvironments(src: string, names: readonly string[], replace: (name: string, inner: string) => string): string {
  let out = src;
  for (const name of names) {
    let from = 0;
    for (;;) {
      const at = out.indexOf(`\\begin{${name}}`, from);
      if (at < 0) break;
      const found = environmentEnd(out, name, at);
      if (!found) break;
      const replacement = replace(name, out.slice(found.inner, found.innerEnd));
      out = out.slice(0, at) + replacement + out.slice(found.end);
      from = at + replacement.length;
    }
  }
  return out;
}

/** Display formulas (environments, `\[...\]`, `$$...$$`) out of the text, each recorded with the text before it. */
function replaceDisplays(src: string, displays: DisplayFormula[]): string {
  let out = src;
  const record = (at: number, end: number, environment: string, body: string) => {
    const before = out.slice(Math.max(0, at - 600), at);
    displays.push({ environment, body, before: before.slice(Math.max(before.lastIndexOf(DISPLAY) + DISPLAY.length, 0)) });
    out = out.slice(0, at) + DISPLAY + out.slice(end);
    return at + DISPLAY.length;
  };
  // In source order, whichever kind comes first.
  let from = 0;
  for (;;) {
    const environment = /\\begin\{([a-zA-Z]+\*?)\}|\\\[|\$\$/g;
    environment.lastIndex = from;
    let match: RegExpExecArray | null;
    let next: { at: number; end: number; name: string; body: string } | undefined;
    while ((match = environment.exec(out))) {
      if (match[1] !== undefined) {
        if (!DISPLAY_ENVIRONMENTS.includes(match[1])) continue;
        const found = environmentEnd(out, match[1], match.index);
        if (!found) continue;
        next = { at: match.index, end: found.end, name: match[1], body: out.slice(found.inner, found.innerEnd) };
      } else if (match[0] === '\\[') {
        const close = out.indexOf('\\]', match.index + 2);
        if (close < 0) continue;
        next = { at: match.index, end: close + 2, name: '\\[', body: out.slice(match.index + 2, close) };
      } else {
        const close = out.indexOf('$$', match.index + 2);
        if (close < 0) continue;
        next = { at: match.index, end: close + 2, name: '$$', body: out.slice(match.index + 2, close) };
      }
      break;
    }
    if (!next) return out;
    from = record(next.at, next.end, next.name, next.body);
  }
}

function replaceFootnotes(src: string): string {
  let out = src;
  for (;;) {
    const match = /\\(?:footnote|thanks)\b/.exec(out);
    if (!match) return out;
    const end = skipArguments(out, match.index + match[0].length, 1);
    out = `${out.slice(0, match.index)}\\FOLIOFOOTNOTE ${out.slice(end)}`;
  }
}

/** Headings, list items and other commands that break the running text, with their arguments. */
function replaceCommands(src: string): string {
  let out = '';
  let i = 0;
  const pattern = new RegExp(SECTIONING.source, 'g');
  for (;;) {
    pattern.lastIndex = i;
    const match = pattern.exec(src);
    if (!match) return out + src.slice(i);
    out += src.slice(i, match.index) + BREAK;
    const name = match[0].slice(1);
    const braced = ['item', 'bibitem', 'newpage', 'clearpage', 'par', 'bigskip', 'medskip', 'smallskip', 'maketitle', 'tableofcontents', 'appendix'].includes(name) ? 0 : 1;
    let end = match.index + match[0].length;
    if (src[end] === '*') end++;
    i = skipArguments(src, end, name === 'bibitem' ? 1 : braced);
  }
}

