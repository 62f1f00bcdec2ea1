/**
 * MathML (as KaTeX writes it) to Office Math (OMML), the equations Word and LibreOffice edit as
 * their own. Each MathML layout element maps to one OMML structure with its children in named
 * slots; tokens become math runs. An element outside the table throws, so the caller can fall
 * back to the formula's source rather than write a wrong equation.
 */

import type { Element, ElementContent } from 'hast';
import { escapeHtmlAttribute, escapeHtmlText } from '../html-escape.js';
import { isElement, textOf } from './markdown-tree.js';

export class UnsupportedMathError extends Error {
  override readonly name = 'UnsupportedMathError';
}

/** Children of a layout element by position, each into an OMML slot; `order` is the schema's order of the slots. */
interface Layout {
  tag: string;
  slots: readonly string[];
  order?: readonly string[];
  properties?: string;
}

const LAYOUTS: Record<string, Layout> = {
  mfrac: { tag: 'm:f', slots: ['m:num', 'm:den'] },
  msqrt: { tag: 'm:rad', slots: ['m:e'], order: ['m:deg', 'm:e'], properties: '<m:radPr><m:degHide m:val="1"/></m:radPr>' },
  mroot: { tag: 'm:rad', slots: ['m:e', 'm:deg'], order: ['m:deg', 'm:e'] },
  msub: { tag: 'm:sSub', slots: ['m:e', 'm:sub'] },
  msup: { tag: 'm:sSup', slots: ['m:e', 'm:sup'] },
  msubsup: { tag: 'm:sSubSup', slots: ['m:e', 'm:sub', 'm:sup'] },
  munder: { tag: 'm:limLow', slots: ['m:e', 'm:lim'] },
  mover: { tag: 'm:limUpp', slots: ['m:e', 'm:lim'] },
};

/** Elements that only group or style their children. */
const GROUPS = new Set(['math', 'mrow', 'mstyle', 'mpadded', 'semantics', 'menclose']);
/** Elements with nothing to show in an equation. */
const SILENT = new Set(['annotation', 'annotation-xml', 'mspace', 'mphantom', 'none']);
const TOKENS = new Set(['mi', 'mn', 'mo', 'mtext', 'ms']);
/** Operators Word sets as n-ary, with limits above and below (sums) or beside (integrals). */
const NARY = new Set([...'∑∏∐⋀⋁⋂⋃⨀⨁⨂⨄⨆']);
const INTEGRALS = new Set([...'∫∬∭∮∯∰⨌']);

const MATHVARIANT_SCRIPT: Record<string, string> = {
  'double-struck': 'double-struck',
  script: 'script',
  'bold-script': 'script',
  fraktur: 'fraktur',
  'bold-fraktur': 'fraktur',
  'sans-serif': 'sans-serif',
  'bold-sans-serif': 'sans-serif',
  'sans-serif-italic': 'sans-serif',
  monospace: 'monospace',
};
const MATHVARIANT_STYLE: Record<string, string> = { normal: 'p', bold: 'b', italic: 'i', 'bold-italic': 'bi', 'bold-fraktur': 'b', 'bold-script': 'b', 'bold-sans-serif': 'b' };

/** The content of an `m:oMath` for a MathML `math` element. */
export function mathmlToOmml(math: Element): string {
  return sequence(math.children);
}

function sequence(children: readonly ElementContent[]): string {
  const elements = children.filter((child): child is Element => isElement(child));
  let out = '';
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i]!;
    const operator = naryOperator(element);
    if (operator !== undefined) {
      // Word's n-ary holds its operand; MathML writes the operand after it
      const operand = elements[i + 1];
      if (operand) i++;
      out += nary(element, operator, operand ? convert(operand) : '');
      continue;
    }
    out += convert(element);
  }
  return out;
}

function convert(element: Element): string {
  const tag = element.tagName;
  if (SILENT.has(tag)) return '';
  if (TOKENS.has(tag)) return token(element);
  if (tag === 'mover' && element.properties['accent'] === 'true') return accent(element);
  if (tag === 'mfrac') return fraction(element);
  const layout = LAYOUTS[tag];
  if (layout) return structure(layout, element);
  if (tag === 'munderover') return structure(LAYOUTS['mover']!, { ...element, children: [limLow(element), argument(element, 2)] });
  if (tag === 'mtable') return table(element);
  if (tag === 'mrow' && isFenced(element)) return delimited(element);
  if (GROUPS.has(tag)) return sequence(element.children);
  throw new UnsupportedMathError(`MathML <${tag}> has no Word equivalent here`);
}

function arguments_(element: Element): Element[] {
  return element.children.filter((child): child is Element => isElement(child));
}

function argument(element: Element, index: number): Element {
  const found = arguments_(element)[index];
  if (!found) throw new UnsupportedMathError(`MathML <${element.tagName}> lacks argument ${index + 1}`);
  return found;
}

function structure(layout: Layout, element: Element): string {
  const filled = new Map(layout.slots.map((slot, index) => [slot, convert(argument(element, index))]));
  const order = layout.order ?? layout.slots;
  const slots = order.map((slot) => `<${slot}>${filled.get(slot) ?? ''}</${slot}>`).join('');
  return `<${layout.tag}>${layout.properties ?? ''}${slots}</${layout.tag}>`;
}

function fraction(element: Element): string {
  const noBar = /^0(\.0*)?([a-z]+)?$/.test(String(element.properties['linethickness'] ?? ''));
  const layout = noBar ? { ...LAYOUTS['mfrac']!, properties: '<m:fPr><m:type m:val="noBar"/></m:fPr>' } : LAYOUTS['mfrac']!;
  return structure(layout, element);
}

/** `munderover` as a lower limit inside an upper one, the nesting Word itself writes. */
function limLow(element: Element): Element {
  return { type: 'element', tagName: 'munder', properties: {}, children: [argument(element, 0), argument(element, 1)] };
}

function accent(element: Element): string {
  const mark = textOf(argument(element, 1)).trim();
  return `<m:acc><m:accPr><m:chr m:val="${escapeHtmlAttribute(mark)}"/></m:accPr><m:e>${convert(argument(element, 0))}</m:e></m:acc>`;
}

/** The operator of a sum or integral written with limits (`munderover`, `msubsup`...), if `element` is one. */
function naryOperator(element: Element): string | undefined {
  if (!['munderover', 'msubsup', 'munder', 'mover', 'msub', 'msup'].includes(element.tagName)) return undefined;
  const base = arguments_(element)[0];
  if (!base || base.tagName !== 'mo') return undefined;
  const symbol = textOf(base).trim();
  return NARY.has(symbol) || INTEGRALS.has(symbol) ? symbol : undefined;
}

function nary(element: Element, operator: string, operand: string): string {
  const [, first, second] = arguments_(element);
  const tag = element.tagName;
  const hasSub = tag === 'munderover' || tag === 'msubsup' || tag === 'munder' || tag === 'msub';
  const lower = hasSub ? first : undefined;
  const upper = tag === 'mover' || tag === 'msup' ? first : hasSub ? second : undefined;
  const below = tag.startsWith('mu') || tag === 'mover' ? 'undOvr' : 'subSup';
  const properties =
    `<m:naryPr><m:chr m:val="${escapeHtmlAttribute(operator)}"/><m:limLoc m:val="${below}"/>` +
    `${lower ? '' : '<m:subHide m:val="1"/>'}${upper ? '' : '<m:supHide m:val="1"/>'}</m:naryPr>`;
  return `<m:nary>${properties}<m:sub>${lower ? convert(lower) : ''}</m:sub><m:sup>${upper ? convert(upper) : ''}</m:sup><m:e>${operand}</m:e></m:nary>`;
}

/** KaTeX writes `\left( … \right)` as a row opening and closing with an `mo fence="true"`. */
function isFenced(row: Element): boolean {
  const items = arguments_(row);
  return items.length >= 2 && isFence(items[0]!) && isFence(items[items.length - 1]!);
}

function isFence(element: Element): boolean {
  return element.tagName === 'mo' && element.properties['fence'] === 'true';
}

function delimited(row: Element): string {
  const items = arguments_(row);
  const open = textOf(items[0]!).trim();
  const close = textOf(items[items.length - 1]!).trim();
  const properties = `<m:dPr><m:begChr m:val="${escapeHtmlAttribute(open)}"/><m:endChr m:val="${escapeHtmlAttribute(close)}"/></m:dPr>`;
  return `<m:d>${properties}<m:e>${sequence(items.slice(1, -1))}</m:e></m:d>`;
}

function table(element: Element): string {
  const rows = arguments_(element).filter((row) => row.tagName === 'mtr' || row.tagName === 'mlabeledtr');
  const columns = Math.max(1, ...rows.map((row) => arguments_(row).length));
  const body = rows
    .map((row) => {
      const cells = arguments_(row).map((cell) => `<m:e>${sequence(cell.children)}</m:e>`);
      while (cells.length < columns) cells.push('<m:e></m:e>');
      return `<m:mr>${cells.join('')}</m:mr>`;
    })
    .join('');
  const properties = `<m:mPr><m:mcs><m:mc><m:mcPr><m:count m:val="${columns}"/><m:mcJc m:val="center"/></m:mcPr></m:mc></m:mcs></m:mPr>`;
  return `<m:m>${properties}${body}</m:m>`;
}

function token(element: Element): string {
  const text = textOf(element);
  if (text === '') return '';
  const variant = String(element.properties['mathvariant'] ?? '');
  const properties: string[] = [];
  if (element.tagName === 'mtext' || element.tagName === 'ms') properties.push('<m:nor/>');
  const script = MATHVARIANT_SCRIPT[variant];
  if (script) properties.push(`<m:scr m:val="${script}"/>`);
  // MathML sets a one-letter identifier in italics and everything else upright; Word does the same only for letters
  const style = MATHVARIANT_STYLE[variant] ?? (element.tagName === 'mi' && [...text].length === 1 ? undefined : 'p');
  if (style) properties.push(`<m:sty m:val="${style}"/>`);
  const runProperties = properties.length > 0 ? `<m:rPr>${properties.join('')}</m:rPr>` : '';
  return `<m:r>${runProperties}<m:t xml:space="preserve">${escapeHtmlText(text)}</m:t></m:r>`;
}
