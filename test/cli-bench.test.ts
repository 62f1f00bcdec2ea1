import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runFolio } from './folio-process.js';
import { printHtml } from './printed-page.js';

let folder: string;

const ARTICLE = `<!doctype html><html><body style="font-family: 'Liberation Serif'; font-size: 12pt">
<h1>Harbour Survey</h1>
<p>The tide gauges were read twice a day during the whole of the spring season.</p>
<p>Readings from the northern basin were lower than those from the southern basin.</p>
</body></html>`;

const tests = [
  { id: 'p1', pdf: 'survey/article.pdf', page: 1, type: 'present', text: 'The tide gauges were read twice a day' },
  { id: 'p2', pdf: 'survey/article.pdf', page: 1, type: 'present', text: 'A sentence the page does not hold' },
  { id: 'a1', pdf: 'survey/article.pdf', page: 1, type: 'absent', text: 'Downloaded from the harbour archive' },
  { id: 'o1', pdf: 'survey/article.pdf', page: 1, type: 'order', before: 'twice a day', after: 'northern basin' },
  { id: 'o2', pdf: 'survey/article.pdf', page: 1, type: 'order', before: 'northern basin', after: 'twice a day' },
  { id: 'b1', pdf: 'survey/article.pdf', page: 1, type: 'baseline' },
];
const missing = [{ id: 'm1', pdf: 'gone.pdf', page: 1, type: 'present', text: 'anything at all' }];

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  await mkdir(path.join(folder, 'pdfs/survey'), { recursive: true });
  const [pdf] = await printHtml([ARTICLE]);
  await writeFile(path.join(folder, 'pdfs/survey/article.pdf'), pdf!);
  await writeFile(path.join(folder, 'text.jsonl'), tests.map((t) => JSON.stringify(t)).join('\n'));
  await writeFile(path.join(folder, 'missing.jsonl'), missing.map((t) => JSON.stringify(t)).join('\n'));
}, 60_000);

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('folio bench', () => {
  it('--json prints one object with pass counts by test file and by type', async () => {
    const out = path.join(folder, 'pages');
    const run = await runFolio(['bench', folder, '--engine', 'text', '--json', '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(report.files).toEqual({ 'text.jsonl': { passed: 4, total: 6 }, 'missing.jsonl': { passed: 0, total: 1 } });
    expect(report.types).toEqual({ present: { passed: 1, total: 3 }, absent: { passed: 1, total: 1 }, order: { passed: 1, total: 2 }, baseline: { passed: 1, total: 1 } });
    expect(report.failures).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'm1', detail: expect.stringContaining('no such file') }), expect.objectContaining({ id: 'o2' })]),
    );
    expect(run.stderr).toContain('gone.pdf');
    // the page's Markdown, named as olmOCR's own scorer looks for it
    expect(await readdir(out)).toEqual(['article_pg1_repeat1.md']);
    expect(await readFile(path.join(out, 'article_pg1_repeat1.md'), 'utf8')).toContain('northern basin');
  }, 120_000);

  it('prints rates by file and type and the failure list for people', async () => {
    const run = await runFolio(['bench', folder, '--engine', 'text']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/text\.jsonl\s+4\/6\s+66\.7%/);
    expect(run.stdout).toMatch(/order\s+1\/2\s+50\.0%/);
    expect(run.stdout).toMatch(/text\.jsonl p2 \[present\] survey\/article\.pdf p1: "A sentence the page does not hold" not found/);
  }, 120_000);

  it('refuses a folder without test files, and a bad test line, naming it', async () => {
    const empty = await mkdtemp(path.join(folder, 'empty-'));
    const none = await runFolio(['bench', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('holds no *.jsonl test files');
    await writeFile(path.join(empty, 'bad.jsonl'), '{"id":"x","pdf":"a.pdf","page":1,"type":"table"}\n');
    const bad = await runFolio(['bench', empty]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('bad.jsonl:1: "cell" must be a non-empty string');
  }, 60_000);

  it('--outputs scores Markdown another converter wrote, in olmOCR\'s layout or one file a page, without converting', async () => {
    const good = 'The tide gauges were read twice a day during the whole of the spring season.\n\nReadings from the northern basin were lower than those from the southern basin.';
    const bad = 'Readings from the northern basin were lower. Downloaded from the harbour archive';
    // olmOCR's runbench layout, with the PDF's subfolder: two of three repeats good
    const olmocr = path.join(folder, 'olmocr-outputs');
    await mkdir(path.join(olmocr, 'survey'), { recursive: true });
    await writeFile(path.join(olmocr, 'survey/article_pg1_repeat1.md'), good);
    await writeFile(path.join(olmocr, 'survey/article_pg1_repeat2.md'), good);
    await writeFile(path.join(olmocr, 'survey/article_pg1_repeat3.md'), bad);
    const run = await runFolio(['bench', folder, '--outputs', olmocr, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { files: Record<string, { passed: number; total: number }>; types: Record<string, { passed: number; total: number }> };
    // as olmOCR: a test passes on a majority of repeats; a type's rate averages the repeats' scores
    expect(report.files['text.jsonl']).toEqual({ passed: 4, total: 6 });
    expect(report.types['absent']!.passed).toBeCloseTo(2 / 3);
    expect(run.stderr).toContain('no Markdown for gone.pdf');

    // one file a page, named by the PDF's bare stem
    const plain = path.join(folder, 'plain-outputs');
    await mkdir(plain, { recursive: true });
    await writeFile(path.join(plain, 'article_pg1.md'), bad);
    const second = await runFolio(['bench', folder, '--outputs', plain]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/text\.jsonl\s+1\/6\s+16\.7%/);
    expect(second.stdout).toContain('outputs in');
  }, 120_000);

  it('--outputs refuses engine flags and an unreadable folder, saying why', async () => {
    const flagged = await runFolio(['bench', folder, '--outputs', folder, '--engine', 'text']);
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain('--outputs scores Markdown already written');
    const missing = await runFolio(['bench', folder, '--outputs', path.join(folder, 'no-such-folder')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read the outputs folder');
  }, 60_000);
});
