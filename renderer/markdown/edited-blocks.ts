/**
 * Ties an edited page's Markdown back to the regions its engine found on the page, so hovering and
 * clicking link the two after an edit as before it. The edited Markdown is cut into its top-level
 * blocks (paragraphs, headings, tables, lists, formulas), and each is matched to the original block
 * whose text it most resembles: blocks left as they were match exactly, a corrected one by the
 * character pairs it still shares, a new one to none.
 */

import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { dollarMath } from '../../shared/math-delimiters.js';

/** One top-level block of the edited Markdown and the index of the engine's block it came from. */
export interface EditedBlock {
  markdown: string;
  /** Index into the page result's blocks; null for text the engine did not write (or no longer recognisable). */
  block: number | null;
}

/** Below this share of character pairs in common (Dice), an edited block is not said to come from a region. */
const MIN_SIMILARITY = 0.5;

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMath).freeze();

/** The Markdown's top-level blocks, as written (math delimiters brought to dollars, as rendered). */
export function splitBlocks(markdown: string): string[] {
  const source = dollarMath(markdown);
  const blocks: string[] = [];
  for (const node of parser.parse(source).children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    // link definitions and the like render nothing on their own
    if (node.type === 'definition' || node.type === 'footnoteDefinition') continue;
    const text = source.slice(start, end);
    if (text.trim() !== '') blocks.push(text);
  }
  return blocks;
}

/**
 * For each edited block, the original block it came from, or null. Several edited blocks may come
 * from one (a paragraph split in two); among equally good matches the one nearest its place wins,
 * so a repeated line links to its own region.
 */
export function matchBlocks(original: readonly string[], edited: readonly string[]): (number | null)[] {
  const normalised = original.map(normalise);
  const exact = new Map<string, number[]>();
  normalised.forEach((text, index) => {
    if (text !== '') exact.set(text, [...(exact.get(text) ?? []), index]);
  });
  let grams: (Map<string, number> | null)[] | undefined;
  return edited.map((text, position) => {
    const expected = edited.length > 1 ? (position / (edited.length - 1)) * (original.length - 1) : 0;
    const key = normalise(text);
    const same = exact.get(key);
    if (same) return nearest(same, expected);
    if (key === '') return null;
    // the unchanged blocks above answer most of a page; pairs are counted only for the changed ones
    grams ??= normalised.map((entry) => (entry === '' ? null : bigrams(entry)));
    const mine = bigrams(key);
    let best: number | null = null;
    let bestScore = MIN_SIMILARITY;
    grams.forEach((theirs, index) => {
      if (!theirs) return;
      const score = dice(mine, theirs);
      if (score > bestScore + 1e-9 || (best !== null && Math.abs(score - bestScore) <= 1e-9 && Math.abs(index - expected) < Math.abs(best - expected))) {
        best = index;
        bestScore = score;
      }
    });
    return best;
  });
}

/** The edited Markdown in blocks, each tied to the engine block (by index) it came from. */
export function linkEditedBlocks(originalBlocks: readonly string[], markdown: string): EditedBlock[] {
  const blocks = splitBlocks(markdown);
  const originals = originalBlocks.map((block) => splitBlocks(block).join('\n\n'));
  const links = matchBlocks(originals, blocks);
  return blocks.map((block, index) => ({ markdown: block, block: links[index] ?? null }));
}

/** Text as compared: Markdown's marks, case and spacing do not make two blocks different. */
function normalise(markdown: string): string {
  return markdown
    .toLowerCase()
    .replace(/[#*_`|>~\\$-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  if (text.length < 2) {
    counts.set(text, 1);
    return counts;
  }
  for (let index = 0; index < text.length - 1; index++) {
    const gram = text.slice(index, index + 2);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function dice(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let shared = 0;
  let total = 0;
  for (const count of a.values()) total += count;
  for (const count of b.values()) total += count;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [gram, count] of small) shared += Math.min(count, large.get(gram) ?? 0);
  return total === 0 ? 0 : (2 * shared) / total;
}

function nearest(candidates: readonly number[], expected: number): number {
  return candidates.reduce((best, index) => (Math.abs(index - expected) < Math.abs(best - expected) ? index : best));
}
