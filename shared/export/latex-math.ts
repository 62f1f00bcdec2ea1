/**
 * A formula from a page or a model, rewritten for the TeX export from an allow-list. The source is
 * parsed (unified-latex: it keeps the macros, arguments and environments as written, where KaTeX's
 * own tree has already expanded `\coloneqq` into a dozen kerns and classes) and written out again
 * token by token: only control words from latex-symbols.ts, environments from the table below,
 * characters from a fixed set and braces this code writes. Nothing of the source reaches the `.tex`
 * as it was written, so TeX's escapes cannot be expressed: `^^5c` is a double superscript, `\csname`,
 * `\catcode`, `\input`, `\write18`, `\url`, `\end{document}` are names outside the list, `%` is a
 * comment the parser drops, control characters are characters outside the set. A formula that uses
 * anything else is refused with the reason, and the export writes it as text.
 */

import type * as Ast from '@unified-latex/unified-latex-types';
import { parseMath } from '@unified-latex/unified-latex-util-parse';
import { MATH_COMMANDS, MATH_CONTROL_SYMBOLS, MATH_RENAMED, MATH_SYMBOLS, TEXT_ARGUMENT_COMMANDS, TEXT_SPECIALS, UNICODE_MATH } from './latex-symbols.js';

export type SafeMath = { ok: true; tex: string } | { ok: false; reason: string };

/** Longer formulas are text: the parser's time grows with them, and no page's formula is this long. */
const MAX_SOURCE = 20_000;
const MAX_DEPTH = 60;
/** amsmath's matrices take this many columns once the preamble sets MaxMatrixCols to it. */
export const MATRIX_COLUMNS = 64;
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
    nodes = parseMath(source);
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
  /** Inside an alignment: its rule and the columns used on the current row so far. */
  alignment: { rule: number; cells: number } | undefined;
  depth: number;
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
    return this.out.trim();
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

  private control(name: string): void {
    this.write(`\\${name}`);
  }

  math(nodes: readonly Ast.Node[], context: Context): void {
    if (context.depth > MAX_DEPTH) throw new Refused('it is nested too deeply');
    const inner = { ...context, depth: context.depth + 1 };
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      switch (node.type) {
        case 'string':
          this.characters(node.content, context);
          break;
        case 'whitespace':
        case 'parbreak':
          this.write(' ');
          break;
        case 'comment':
          // the parser has taken `%` to the end of the line out of the formula; KaTeX does the same
          this.write(' ');
          break;
        case 'group':
          this.write('{');
          this.math(node.content, { alignment: undefined, depth: inner.depth });
          this.write('}');
          break;
        case 'macro':
          index += this.macro(node, nodes, index, inner);
          break;
        case 'environment':
        case 'mathenv':
          this.environment(node, inner);
          break;
        default:
          throw new Refused(`it holds ${node.type === 'inlinemath' || node.type === 'displaymath' ? 'a formula inside a formula' : `a ${node.type}`}`);
      }
    }
  }

  private characters(text: string, context: Context): void {
    for (const character of text) {
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
  }

  /** Writes a macro and returns how many of the sibling nodes after it it took as arguments. */
  private macro(node: Ast.Macro, siblings: readonly Ast.Node[], index: number, context: Context): number {
    const name = node.content;
    if (node.escapeToken === '' && (name === '^' || name === '_')) {
      const argument = node.args?.[node.args.length - 1];
      const content = argument?.content ?? [];
      if (content.length === 0) throw new Refused(`a ${name === '^' ? 'superscript' : 'subscript'} has nothing after it`);
      // `^^5c` is TeX's spelling of a backslash; as math it is a superscript of a superscript
      if (content.length === 1 && content[0]!.type === 'macro' && content[0]!.escapeToken === '' && (content[0]!.content === '^' || content[0]!.content === '_')) {
        throw new Refused(`it has a double ${name === '^' ? 'superscript' : 'subscript'} (TeX would read "${name}${name}" as a character code)`);
      }
      this.write(`${name}{`);
      this.math(content, { alignment: undefined, depth: context.depth });
      this.write('}');
      return 0;
    }
    if (name === '\\') {
      if (!context.alignment) {
        // a line break outside an alignment is an error in LaTeX's math; KaTeX breaks the line
        this.write(' ');
        return 0;
      }
      context.alignment.cells = 1;
      this.control('\\');
      this.afterRowEnd = true;
      return 0;
    }
    if (name.length === 1 && !/[A-Za-z]/.test(name)) {
      if (!MATH_CONTROL_SYMBOLS.has(name)) throw new Refused(`it uses \\${name}`);
      this.write(`\\${name}`);
      return 0;
    }
    const renamed = MATH_RENAMED[name];
    if (renamed !== undefined) {
      this.write(/^[<>{]/.test(renamed) ? renamed : `\\${renamed}`);
      this.arguments(node, context);
      return 0;
    }
    if (name === 'hline') {
      if (!context.alignment) throw new Refused('it has \\hline outside a table');
      this.control(name);
      return 0;
    }
    if (MATH_SYMBOLS.has(name)) {
      if (node.args?.some((argument) => argument.content.length > 0)) throw new Refused(`\\${name} takes no argument`);
      this.control(name);
      return 0;
    }
    if (MATH_COMMANDS.has(name)) {
      this.control(name);
      this.arguments(node, context);
      return 0;
    }
    if (TEXT_ARGUMENT_COMMANDS.has(name) || name === 'tag') {
      const [argument, taken] = this.textArgument(node, siblings, index);
      // amsmath takes one \tag, at the top of a display; others (align's rows, now aligned) are written beside the row
      const ownTag = name === 'tag' && this.display && context.depth === 1 && !this.tagged;
      if (name === 'tag') this.tagged ||= ownTag;
      this.write(name === 'tag' ? (ownTag ? '\\tag{' : '\\qquad\\text{(') : `\\${name}{`);
      this.textMode(argument, context);
      this.write(name === 'tag' && !ownTag ? ')}' : '}');
      return taken;
    }
    if (name === 'color' || name === 'textcolor') return this.color(node, siblings, index, context);
    if (name === 'hspace') {
      const size = plain(node.args?.[node.args.length - 1]?.content ?? []);
      if (!DIMENSION.test(size)) throw new Refused(`\\hspace has the size "${size.slice(0, 20)}"`);
      this.write(`\\hspace{${size}}`);
      return 0;
    }
    if (name === 'label') throw new Refused('it has a \\label');
    throw new Refused(`it uses \\${name}, which the TeX export does not write`);
  }

  /** The arguments the parser attached, each braced or bracketed as written; a star stays a star. */
  private arguments(node: Ast.Macro, context: Context): void {
    for (const argument of node.args ?? []) {
      if (argument.openMark === '' && argument.content.length === 0) continue;
      if (argument.openMark === '' && plain(argument.content) === '*') {
        this.write('*');
        continue;
      }
      const [open, close] = argument.openMark === '[' ? ['[', ']'] : ['{', '}'];
      this.write(open);
      this.math(argument.content, { alignment: undefined, depth: context.depth });
      this.write(close);
    }
  }

  /** A text command's argument: attached by the parser, or (for commands it does not know) the group after it. */
  private textArgument(node: Ast.Macro, siblings: readonly Ast.Node[], index: number): [readonly Ast.Node[], number] {
    const attached = node.args?.filter((argument) => argument.openMark === '{');
    if (attached && attached.length > 0) return [attached[attached.length - 1]!.content, 0];
    let next = index + 1;
    while (siblings[next]?.type === 'whitespace') next++;
    const group = siblings[next];
    if (group?.type === 'group') return [group.content, next - index];
    if (group?.type === 'string' && group.content.length > 0) return [[{ type: 'string', content: group.content }], next - index];
    throw new Refused(`\\${node.content} has no argument`);
  }

  /** Text inside `\text{...}`: characters escaped for text, math inside it back through the allow-list. */
  private textMode(nodes: readonly Ast.Node[], context: Context): void {
    if (context.depth > MAX_DEPTH) throw new Refused('it is nested too deeply');
    for (const node of nodes) {
      if (node.type === 'string') {
        for (const character of node.content) {
          if (/^[A-Za-z0-9+\-=()[\]/,.;:!?'*@ ]$/.test(character)) this.write(character);
          else if (TEXT_SPECIALS[character] !== undefined) this.write(TEXT_SPECIALS[character]!);
          else if (UNICODE_MATH[character] !== undefined) this.write(`$${UNICODE_MATH[character]!}$`);
          else if (/[\u00c0-\u00ff]/.test(character) && character !== '\u00d7' && character !== '\u00f7') this.write(character);
          else throw new Refused(`its text holds the character ${describeCharacter(character)}`);
        }
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
      } else if (node.type === 'macro' && TEXT_ARGUMENT_COMMANDS.has(node.content) && node.args?.length) {
        this.write(`\\${node.content}{`);
        this.textMode(node.args[node.args.length - 1]!.content, { ...context, depth: context.depth + 1 });
        this.write('}');
      } else {
        throw new Refused(`its text uses ${node.type === 'macro' ? `\\${node.content}` : `a ${node.type}`}`);
      }
    }
  }

  private color(node: Ast.Macro, siblings: readonly Ast.Node[], index: number, context: Context): number {
    const args = node.args ?? [];
    const model = plain(args.find((argument) => argument.openMark === '[')?.content ?? []);
    const braced = args.filter((argument) => argument.openMark === '{');
    const spec = plain(braced[0]?.content ?? []);
    if (model === '' ? !COLOR_NAMES.has(spec) : !COLOR_MODELS[model]?.test(spec)) throw new Refused(`it uses the colour "${(model ? `[${model}]` : '') + spec.slice(0, 20)}"`);
    this.write(`\\${node.content}${model ? `[${model}]` : ''}{${spec}}`);
    if (node.content === 'color') return 0;
    let content = braced[1]?.content;
    let taken = 0;
    if (!content) {
      const next = siblings[index + 1];
      if (next?.type !== 'group') throw new Refused('\\textcolor has no text');
      content = next.content;
      taken = 1;
    }
    this.write('{');
    this.math(content, { alignment: undefined, depth: context.depth + 1 });
    this.write('}');
    return taken;
  }

  private environment(node: Ast.Environment, context: Context): void {
    const name = environmentName(node);
    const rule = ENVIRONMENTS[name];
    if (!rule) throw new Refused(`it uses the environment ${name}, which the TeX export does not write`);
    let content = node.content;
    let columns = rule.columns === 'spec' ? 0 : rule.columns;
    let argument = '';
    if (rule.columns === 'spec') {
      const spec = plain(node.args?.find((arg) => arg.openMark === '{')?.content ?? (content[0]?.type === 'group' ? content[0].content : []));
      if (!/^[lcr| ]{1,200}$/.test(spec)) throw new Refused(`its ${name} has the columns "${spec.slice(0, 20)}"`);
      if (!node.args?.some((arg) => arg.openMark === '{')) content = content.slice(1);
      columns = (spec.match(/[lcr]/g) ?? []).length;
      argument = `{${spec.replace(/ /g, '')}}`;
    } else if (rule.countArgument) {
      const first = content.findIndex((child) => child.type !== 'whitespace');
      const count = first === -1 || content[first]!.type !== 'group' ? '' : plain((content[first] as Ast.Group).content);
      if (!/^[1-9]\d?$/.test(count)) throw new Refused(`its ${name} has the column count "${count.slice(0, 20)}"`);
      content = content.slice(first + 1);
      argument = `{${count}}`;
    }
    const alignment = { rule: Math.min(columns === Infinity ? Number.MAX_SAFE_INTEGER : columns, Number.MAX_SAFE_INTEGER), cells: 1 };
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

/** The characters of nodes that are only strings and spaces (a colour's name, a size), or '' when not. */
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
