/**
 * End to end through the CLI: held-out synthetic page PDFs (never trained on) read by the nano demo
 * model, selected by name, speculating with its FastMTP head; the Markdown must stay within the
 * character error rate measured for the model card (tools/model/fixtures/nano/README.md).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dollarMath } from '../shared/math-delimiters.js';
import { repoRoot, runFolio } from './folio-process.js';
import { levenshtein } from '../shared/text-match/fuzzy-match.js';

const pagesDir = path.join(repoRoot, 'tools/model/fixtures/nano/pages');
/**
 * Each page's limit: its measured CER (0.044 and 0.048; the model card: 0.136 over 20 held-out
 * pages), plus room for another CPU's rounding.
 */
const CER_LIMITS: Record<string, number> = { 'heldout-0000': 0.08, 'heldout-0001': 0.08 };
const PAGES = Object.keys(CER_LIMITS);

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-nano-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('folio convert --model nano-demo', () => {
  it('reads held-out synthetic pages within the measured character error rate', async () => {
    const pdfs = PAGES.map((name) => path.join(pagesDir, `${name}.pdf`));
    const run = await runFolio(['convert', ...pdfs, '-o', folder, '--engine', 'vlm', '--model', 'nano-demo', '--spec-k', '3', '--max-tokens', '400']);
    expect(run.code, run.stderr).toBe(0);
    for (const name of PAGES) {
      // the export writes a display formula as a `$$` block (shared/math-delimiters.ts); so would a perfect reading's
      const truth = dollarMath((await readFile(path.join(pagesDir, `${name}.md`), 'utf8')).trim());
      const markdown = (await readFile(path.join(folder, `${name}.md`), 'utf8')).trim();
      expect(levenshtein(markdown, truth) / truth.length, markdown).toBeLessThan(CER_LIMITS[name] as number);
    }
  }, 180_000);
});
