/**
 * A formula from a page or a model, rewritten for the TeX export from an allow-list. The source is
 * parsed into TeX's tokens and groups (unified-latex's minimal parse: it keeps the macros and
 * environments as written, where KaTeX's own tree has already expanded `\coloneqq` into a dozen
 * kerns and classes), each command's arguments are read as TeX reads them (a token or a group,
 * `[...]` where optional), and it is written out again: only control words from latex-symbols.ts,
 * environments from the table below,
 * characters from a fixed set and braces this code writes. Nothing of the source reaches the `.tex`
 * as it was written, so TeX's escapes cannot be expressed: `^^5c` is a double superscript, `\csname`,
 * `\catcode`, `\input`, `\write18`, `\url`, `\end{document}` are names outside the list, `%` is a
 * comment the parser drops, control characters are characters outside the set. A formula that uses
 * anything else is refused with the reason, and the export writes it as text.
 */

import type * as Ast from '@unified-latex/unified-latex-types';
import { parseMathMinimal } from '@unified-latex/unified-latex-util-parse';
import { MATH_COMMANDS, MATH_CONTROL_SYMBOLS, MATH_RENAMED, MATH_SYMBOLS, TEXT_ARGUMENT_COMMANDS, TEXT_SPECIALS, UNICODE_MATH } from './latex-symbols.js';

export type SafeMath = { ok: true; tex: string } | { ok: false; reason: string };

/** Longer formulas are text: the parser's time grows with them, and no page's formula is this long. */
const MAX_SOURCE = 20_000;
const MAX_DEPTH = 60;
/** amsmath's matrices take this many columns once the preamble sets MaxMatrixCols to it. */
export const MATRIX_COLUMNS = 64;
/** Arguments of the commands that take other than one: [optional argument, mandatory count]. */
const ARITY: Record<string, [boolean, number]> = {
  ...Object.fromEntries('frac dfrac tfrac binom dbinom tbinom overset underset stackrel cancelto'.split(' ').map((name) => [name, [false, 2]])),
  ...Object.fromEntries('sqrt smash xrightarrow xleftarrow xRightarrow xLeftarrow xleftrightarrow xLeftrightarrow xhookrightarrow xhookleftarrow xmapsto'.split(' ').map((name) => [name, [true, 1]])),
  cfrac: [true, 2],
  not: [false, 0],
};
/** A line of the `.tex` is broken before this length (TeX's input buffer is finite). */
const LINE_LENGTH = 200;

/** ASCII characters that mean themselves in math. */
const MATH_CHARACTERS = /^[A-Za-z0-9+\-=<>()[\]/|,.;:!?'*@ ]$/;

interface EnvironmentRule {
  /** The name written: display environments (align) become their inner forms (aligned). */
  writeAs: string;
  /** Columns of its rows: a number, or 'spec' for array's column argument, or Infinity. */
  columns: number | 'spec';
  /** Whether it takes a first argument that is a number (alignat's column pairs). */
  countArgument?: boolean;
}

const ENVIRONMENTS: Record<string, EnvironmentRule> = {
  matrix: { writeAs: 'matrix', columns: MATRIX_COLUMNS },
  pmatrix: { writeAs: 'pmatrix', columns: MATRIX_COLUMNS },
  bmatrix: { writeAs: 'bmatrix', columns: MATRIX_COLUMNS },
  Bmatrix: { writeAs: 'Bmatrix', columns: MATRIX_COLUMNS },
  vmatrix: { writeAs: 'vmatrix', columns: MATRIX_COLUMNS },
  Vmatrix: { writeAs: 'Vmatrix', columns: MATRIX_COLUMNS },
  smallmatrix: { writeAs: 'smallmatrix', columns: MATRIX_COLUMNS },
  cases: { writeAs: 'cases', columns: 2 },
  dcases: { writeAs: 'dcases', columns: 2 },
  rcases: { writeAs: 'rcases', columns: 2 },
  array: { writeAs: 'array', columns: 'spec' },
  darray: { writeAs: 'array', columns: 'spec' },
  subarray: { writeAs: 'subarray', columns: 'spec' },
  aligned: { writeAs: 'aligned', columns: Infinity },
  split: { writeAs: 'split', columns: 2 },
  gathered: { writeAs: 'gathered', columns: 1 },
  alignedat: { writeAs: 'alignedat', columns: Infinity, countArgument: true },
  // display environments: LaTeX refuses them inside \[...\], so they are written as their inner forms
  align: { writeAs: 'aligned', columns: Infinity },
  'align*': { writeAs: 'aligned', columns: Infinity },
  flalign: { writeAs: 'aligned', columns: Infinity },
  'flalign*': { writeAs: 'aligned', columns: Infinity },
  eqnarray: { writeAs: 'aligned', columns: Infinity },
  'eqnarray*': { writeAs: 'aligned', columns: Infinity },
  alignat: { writeAs: 'alignedat', columns: Infinity, countArgument: true },
  'alignat*': { writeAs: 'alignedat', columns: Infinity, countArgument: true },
  gather: { writeAs: 'gathered', columns: 1 },
  'gather*': { writeAs: 'gathered', columns: 1 },
  multline: { writeAs: 'gathered', columns: 1 },
  'multline*': { writeAs: 'gathered', columns: 1 },
  equation: { writeAs: '', columns: 1 },
  'equation*': { writeAs: '', columns: 1 },
  displaymath: { writeAs: '', columns: 1 },
};

/** xcolor's base names; any other name is an error in LaTeX, so it is refused here. */
const COLOR_NAMES = new Set('red green blue cyan magenta yellow black white gray darkgray lightgray brown lime olive orange pink purple teal violet'.split(' '));
const COLOR_MODELS: Record<string, RegExp> = {
  HTML: /^[0-9A-Fa-f]{6}$/,
  rgb: /^(?:0|1|0?\.\d{1,4})(?:,(?:0|1|0?\.\d{1,4})){2}$/,
  RGB: /^\d{1,3},\d{1,3},\d{1,3}$/,
  gray: /^(?:0|1|0?\.\d{1,4})$/,
};
const DIMENSION = /^-?\d{1,3}(?:\.\d{1,3})?(?:em|ex|pt|mm|cm|mu)$/;

class Refused extends Error {}

/** The formula as LaTeX built only from the allow-list, or why it cannot be. */
export function safeMath(source: string, display: boolean): SafeMath {
  if (source.length > MAX_SOURCE) return { ok: false, reason: `it is longer than ${MAX_SOURCE.toLocaleString('en')} characters` };
  let nodes: Ast.Node[];
  try {
    nodes = parseMathMinimal(source);
  } catch (error) {
    return { ok: false, reason: `it could not be parsed (${(error as Error).message.slice(0, 80)})` };
  }
  try {
    const writer = new MathWriter(display);
    writer.math(nodes, { alignment: undefined, depth: 0 });
    return { ok: true, tex: writer.text() };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    if (error instanceof RangeError) return { ok: false, reason: 'it is nested too deeply' };
    throw error;
  }
}

interface Context {
  /** Inside an alignment: its columns and the column the current row has reached. */
  alignment: { rule: number; cells: number } | undefined;
  depth: number;
}

/** Nodes as TeX's tokens: strings one character each; groups, macros and environments as they are. */
function tokens(nodes: readonly Ast.Node[]): Ast.Node[] {
  const list = nodes.flatMap((node) => (node.type === 'string' ? [...node.content].map((content): Ast.Node => ({ type: 'string', content })) : [node]));
  // the LaTeX parser splits a character outside the BMP (𝑥, 𝜋) into its two UTF-16 halves: joined again
  return list.flatMap((node, index): Ast.Node[] => {
    const before = list[index - 1];
    if (node.type === 'string' && isLowSurrogate(node.content) && before?.type === 'string' && isHighSurrogate(before.content)) return [];
    const after = list[index + 1];
    if (node.type === 'string' && isHighSurrogate(node.content) && after?.type === 'string' && isLowSurrogate(after.content)) return [{ type: 'string', content: node.content + after.content }];
    return [node];
  });
}

function isHighSurrogate(text: string): boolean {
  return text.length === 1 && text.charCodeAt(0) >= 0xd800 && text.charCodeAt(0) <= 0xdbff;
}

function isLowSurrogate(text: string): boolean {
  return text.length === 1 && text.charCodeAt(0) >= 0xdc00 && text.charCodeAt(0) <= 0xdfff;
}

function isCharacter(node: Ast.Node | undefined, characters: string): node is Ast.String {
  return node?.type === 'string' && characters.includes(node.content);
}

function skipSpace(list: readonly Ast.Node[], index: number): number {
  while (list[index]?.type === 'whitespace' || list[index]?.type === 'comment' || list[index]?.type === 'parbreak') index++;
  return index;
}

class MathWriter {
  private out = '';
  private lineLength = 0;
  /** Whether the last thing written was a control word, which a letter after it would lengthen. */
  private afterWord = false;
  private afterRowEnd = false;
  private tagged = false;

  constructor(private readonly display: boolean) {}

  text(): string {
    // a space after a backslash is a control space (`\ `), part of the formula
    return this.out.replace(/^\s+/, '').replace(/(?<!\\)\s+$/, '');
  }

  /** Writes TeX this module built; breaks the line first if it is long (a newline is a space in math). */
  private write(tex: string): void {
    if (tex === '') return;
    if (this.afterWord && /^[A-Za-z]/.test(tex)) tex = ` ${tex}`;
    if (this.afterRowEnd && tex.startsWith('[')) tex = `{}${tex}`;
    if (this.lineLength > LINE_LENGTH && !this.afterRowEnd) {
      this.out += '\n';
      this.lineLength = 0;
    }
    this.out += tex;
    const newline = tex.lastIndexOf('\n');
    this.lineLength = newline === -1 ? this.lineLength + tex.length : tex.length - newline - 1;
    this.afterWord = /\\[A-Za-z]+$/.test(tex);
    this.afterRowEnd = false;
  }

  math(nodes: readonly Ast.Node[], context: Context): void {
    if (context.depth > MAX_DEPTH) throw new Refused('it is nested too deeply');
    const inner = { ...context, depth: context.depth + 1 };
    const list = tokens(nodes);
    for (let index = 0; index < list.length; ) index = this.item(list, index, inner);
  }

  /** Writes the item at `index` (with the arguments it takes) and returns the index after it. */
  private item(list: readonly Ast.Node[], index: number, context: Context): number {
    const node = list[index]!;
    switch (node.type) {
      case 'string':
        if (node.content === '^' || node.content === '_') return this.script(list, index, context);
        this.character(node.content, context);
        return index + 1;
      case 'whitespace':
      case 'parbreak':
      case 'comment':
        // a comment is gone from the source already (`%` to the line's end); KaTeX reads it the same way
        this.write(' ');
        return index + 1;
      case 'group':
        this.write('{');
        this.math(node.content, { alignment: undefined, depth: context.depth });
        this.write('}');
        return index + 1;
      case 'macro':
        if (node.escapeToken === '' && (node.content === '^' || node.content === '_')) return this.script(list, index, context);
        return this.macro(list, index, context);
      case 'environment':
      case 'mathenv':
        this.environment(node, context);
        return index + 1;
      default:
        throw new Refused(`it holds ${node.type === 'inlinemath' || node.type === 'displaymath' ? 'a formula inside a formula' : `a ${node.type}`}`);
    }
  }

  /** `^` or `_` and its argument, always braced: `^^5c` (TeX's spelling of a backslash) is a double superscript here. */
  private script(list: readonly Ast.Node[], index: number, context: Context): number {
    const node = list[index]!;
    const mark = node.type === 'string' ? node.content : (node as Ast.Macro).content;
    const what = mark === '^' ? 'superscript' : 'subscript';
    const argument = this.argument(list, index + 1);
    if (!argument) throw new Refused(`a ${what} has nothing after it`);
    const [first] = argument.nodes;
    if (!argument.braced && (isCharacter(first, '^_') || (first?.type === 'macro' && first.escapeToken === '' && '^_'.includes(first.content)))) {
      throw new Refused(`it has a double ${what} (TeX would read "${mark}${mark}" as a character code)`);
    }
    this.write(`${mark}{`);
    this.math(argument.nodes, { alignment: undefined, depth: context.depth });
    this.write('}');
    return argument.next;
  }

  /**
   * An undelimited argument as TeX reads one after spaces: a group, or one token; a command as the
   * token brings its own arguments along (`x^\frac12` is `x^{\frac12}`).
   */
  private argument(list: readonly Ast.Node[], index: number): { nodes: readonly Ast.Node[]; next: number; braced: boolean } | undefined {
    const at = skipSpace(list, index);
    const node = list[at];
    if (!node) return undefined;
    if (node.type === 'group') return { nodes: node.content, next: at + 1, braced: true };
    if (node.type === 'macro' && node.escapeToken !== '') {
      let next = at + 1;
      const [optional, count] = ARITY[node.content] ?? (MATH_COMMANDS.has(node.content) || TEXT_ARGUMENT_COMMANDS.has(node.content) ? [false, 1] : [false, 0]);
      if (optional) next = this.optional(list, next)?.next ?? next;
      for (let n = 0; n < count; n++) next = this.argument(list, next)?.next ?? next;
      return { nodes: list.slice(at, next), next, braced: false };
    }
    return { nodes: [node], next: at + 1, braced: false };
  }

  /** `[...]` after spaces, as LaTeX's optional arguments are found; undefined when there is none. */
  private optional(list: readonly Ast.Node[], index: number): { nodes: readonly Ast.Node[]; next: number } | undefined {
    const at = skipSpace(list, index);
    if (!isCharacter(list[at], '[')) return undefined;
    let depth = 0;
    for (let end = at + 1; end < list.length; end++) {
      if (isCharacter(list[end], '[')) depth++;
      else if (isCharacter(list[end], ']') && depth-- === 0) return { nodes: list.slice(at + 1, end), next: end + 1 };
    }
    throw new Refused('an optional argument is not closed');
  }

  private character(character: string, context: Context): void {
    if (MATH_CHARACTERS.test(character)) {
      this.write(character);
    } else if (character === '&' && context.alignment) {
      context.alignment.cells++;
      if (context.alignment.cells > context.alignment.rule) throw new Refused(`a row has more than ${context.alignment.rule} columns`);
      this.write(' & ');
    } else if (character === '~') {
      this.write('~');
    } else if (character === '"') {
      this.write("''");
    } else if (UNICODE_MATH[character] !== undefined) {
      this.write(UNICODE_MATH[character]!);
    } else {
      throw new Refused(`it holds the character ${describeCharacter(character)}`);
    }
  }

  private macro(list: readonly Ast.Node[], index: number, context: Context): number {
    const node = list[index] as Ast.Macro;
    const name = node.content;
    const next = index + 1;
    if (name === '\\') {
      if (!context.alignment) {
        // a line break outside an alignment is an error in LaTeX's math; KaTeX breaks the line
        this.write(' ');
        return this.optional(list, isCharacter(list[next], '*') ? next + 1 : next)?.next ?? next;
      }
      context.alignment.cells = 1;
      this.write('\\\\');
      this.afterRowEnd = true;
      // a star or a space to add after the row is left out
      return this.optional(list, isCharacter(list[next], '*') ? next + 1 : next)?.next ?? next;
    }
    if (name.length === 1 && !/[A-Za-z]/.test(name)) {
      if (!MATH_CONTROL_SYMBOLS.has(name)) throw new Refused(`it uses \\${name}`);
      this.write(`\\${name}`);
      return next;
    }
    if (name === 'label' || name === 'relax') {
      // a label has nothing to point at in the export; \relax does nothing
      return name === 'label' ? (this.argument(list, next)?.next ?? next) : next;
    }
    const renamed = MATH_RENAMED[name];
    if (renamed !== undefined) {
      this.write(/^[<>{]/.test(renamed) ? renamed : `\\${renamed}`);
      return next;
    }
    if (name === 'hline') {
      if (!context.alignment) throw new Refused('it has \\hline outside a table');
      this.write('\\hline');
      return next;
    }
    if (MATH_SYMBOLS.has(name)) {
      this.write(`\\${name}`);
      return next;
    }
    if (MATH_COMMANDS.has(name)) return this.command(list, index, context);
    if (TEXT_ARGUMENT_COMMANDS.has(name) || name === 'tag') {
      const argument = this.argument(list, isCharacter(list[next], '*') ? next + 1 : next);
      if (!argument) throw new Refused(`\\${name} has no argument`);
      // amsmath takes one \tag, at the top of a display; others (align's rows, now aligned) are written beside the row
      const ownTag = name === 'tag' && this.display && context.depth === 1 && !this.tagged;
      if (name === 'tag') this.tagged ||= ownTag;
      this.write(name === 'tag' ? (ownTag ? '\\tag{' : '\\qquad\\text{(') : `\\${name}{`);
      this.textMode(argument.nodes, context);
      this.write(name === 'tag' && !ownTag ? ')}' : '}');
      return argument.next;
    }
    if (name === 'color' || name === 'textcolor') return this.color(list, index, context);
    if (name === 'hspace') {
      const argument = this.argument(list, isCharacter(list[next], '*') ? next + 1 : next);
      const size = plain(argument?.nodes ?? []);
      if (!DIMENSION.test(size)) throw new Refused(`\\hspace has the size "${size.slice(0, 20)}"`);
      this.write(`\\hspace{${size}}`);
      return argument!.next;
    }
    throw new Refused(`it uses \\${name}, which the TeX export does not write`);
  }

  /** A command of MATH_COMMANDS with its arguments, each written braced (or bracketed). */
  private command(list: readonly Ast.Node[], index: number, context: Context): number {
    const name = (list[index] as Ast.Macro).content;
    const [hasOptional, count] = ARITY[name] ?? [false, 1];
    let next = index + 1;
    this.write(`\\${name}`);
    if (name === 'operatorname' && isCharacter(list[next], '*')) {
      this.write('*');
      next++;
    }
    const optional = hasOptional ? this.optional(list, next) : undefined;
    if (optional) {
      this.write('[');
      this.math(optional.nodes, { alignment: undefined, depth: context.depth });
      this.write(']');
      next = optional.next;
    }
    for (let n = 0; n < count; n++) {
      const argument = this.argument(list, next);
      if (!argument) throw new Refused(`\\${name} is missing an argument`);
      this.write('{');
      // \substack's rows end with \\ as an alignment's do
      this.math(argument.nodes, { alignment: name === 'substack' ? { rule: 1, cells: 1 } : undefined, depth: context.depth });
      this.write('}');
      next = argument.next;
    }
    return next;
  }

  /** Text inside `\text{...}`: characters escaped for text, math inside it back through the allow-list. */
  private textMode(nodes: readonly Ast.Node[], context: Context): void {
    if (context.depth > MAX_DEPTH) throw new Refused('it is nested too deeply');
    const list = tokens(nodes);
    for (let index = 0; index < list.length; index++) {
      const node = list[index]!;
      if (node.type === 'string') {
        const character = node.content;
        if (/^[A-Za-z0-9+\-=()[\]/,.;:!?'*@ ]$/.test(character)) this.write(character);
        else if (TEXT_SPECIALS[character] !== undefined) this.write(TEXT_SPECIALS[character]!);
        else if (UNICODE_MATH[character] !== undefined) this.write(`$${UNICODE_MATH[character]!}$`);
        else if (/[\u00c0-\u00ff]/.test(character) && character !== '\u00d7' && character !== '\u00f7') this.write(character);
        else throw new Refused(`its text holds the character ${describeCharacter(character)}`);
      } else if (node.type === 'whitespace' || node.type === 'comment') {
        this.write(' ');
      } else if (node.type === 'group') {
        this.write('{');
        this.textMode(node.content, { ...context, depth: context.depth + 1 });
        this.write('}');
      } else if (node.type === 'inlinemath') {
        this.write('$');
        this.math(node.content, { alignment: undefined, depth: context.depth + 1 });
        this.write('$');
      } else if (node.type === 'macro' && node.content.length === 1 && '%&#$_{} ,'.includes(node.content)) {
        this.write(`\\${node.content}`);
      } else if (node.type === 'macro' && TEXT_ARGUMENT_COMMANDS.has(node.content)) {
        const argument = this.argument(list, index + 1);
        if (!argument) throw new Refused(`\\${node.content} has no argument`);
        this.write(`\\${node.content}{`);
        this.textMode(argument.nodes, { ...context, depth: context.depth + 1 });
        this.write('}');
        index = argument.next - 1;
      } else {
        throw new Refused(`its text uses ${node.type === 'macro' ? `\\${node.content}` : `a ${node.type}`}`);
      }
    }
  }

  private color(list: readonly Ast.Node[], index: number, context: Context): number {
    const name = (list[index] as Ast.Macro).content;
    const optional = this.optional(list, index + 1);
    const model = optional ? plain(optional.nodes) : '';
    const specArgument = this.argument(list, optional?.next ?? index + 1);
    const spec = specArgument?.braced ? plain(specArgument.nodes) : '';
    if (!specArgument || (model === '' ? !COLOR_NAMES.has(spec) : !COLOR_MODELS[model]?.test(spec))) throw new Refused(`it uses the colour "${(model ? `[${model}]` : '') + spec.slice(0, 20)}"`);
    this.write(`\\${name}${model ? `[${model}]` : ''}{${spec}}`);
    if (name === 'color') return specArgument.next;
    const content = this.argument(list, specArgument.next);
    if (!content) throw new Refused('\\textcolor has no text');
    this.write('{');
    this.math(content.nodes, { alignment: undefined, depth: context.depth });
    this.write('}');
    return content.next;
  }

  private environment(node: Ast.Environment, context: Context): void {
    const name = environmentName(node);
    const rule = ENVIRONMENTS[name];
    if (!rule) throw new Refused(`it uses the environment ${name}, which the TeX export does not write`);
    let content: readonly Ast.Node[] = node.content;
    let columns = rule.columns === 'spec' ? 0 : rule.columns;
    let argument = '';
    const first = skipSpace(content, 0);
    const leading = content[first]?.type === 'group' ? (content[first] as Ast.Group) : undefined;
    const given = node.args?.find((arg) => arg.openMark === '{')?.content ?? leading?.content;
    if (rule.columns === 'spec') {
      const spec = plain(given ?? []);
      if (!/^[lcr| ]{1,200}$/.test(spec)) throw new Refused(`its ${name} has the columns "${spec.slice(0, 20)}"`);
      if (!node.args?.some((arg) => arg.openMark === '{')) content = content.slice(first + 1);
      columns = (spec.match(/[lcr]/g) ?? []).length;
      argument = `{${spec.replace(/ /g, '')}}`;
    } else if (rule.countArgument) {
      const count = plain(given ?? []);
      if (!/^[1-9]\d?$/.test(count)) throw new Refused(`its ${name} has the column count "${count.slice(0, 20)}"`);
      if (!node.args?.some((arg) => arg.openMark === '{')) content = content.slice(first + 1);
      argument = `{${count}}`;
    }
    const alignment = { rule: columns === Infinity ? Number.MAX_SAFE_INTEGER : columns, cells: 1 };
    if (rule.writeAs === '') {
      this.write('{');
      this.math(content, { alignment, depth: context.depth });
      this.write('}');
      return;
    }
    this.write(`\\begin{${rule.writeAs}}${argument}`);
    this.math(content, { alignment, depth: context.depth });
    this.write(`\\end{${rule.writeAs}}`);
  }
}

function environmentName(node: Ast.Environment): string {
  const env = node.env as unknown;
  if (typeof env === 'string') return env;
  if (env && typeof env === 'object' && 'content' in env) return String((env as { content: unknown }).content);
  return '';
}

/** The characters of nodes that are only strings and spaces (a colour's name, a size), or a NUL when not. */
function plain(nodes: readonly Ast.Node[]): string {
  let text = '';
  for (const node of nodes) {
    if (node.type === 'string') text += node.content;
    else if (node.type === 'whitespace') text += ' ';
    else return '\u0000';
  }
  return text.trim();
}

export function describeCharacter(character: string): string {
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /[\p{L}\p{N}\p{P}\p{S}]/u.test(character) ? `"${character}" (${code})` : code;
}
