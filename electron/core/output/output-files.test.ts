import { describe, expect, it } from 'vitest';
import type { PageResult } from '../../../shared/page.js';
import { outputFiles, outputNames, type OutputPlan } from './output-files.js';
import { OutputNames, stemOf } from './output-names.js';

const PNG_BYTES = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function page(number: number, withImageData: boolean): PageResult {
  const name = `page-${number}-image-1.png`;
  return {
    page: number,
    width: 595,
    height: 842,
    markdown: `# Page ${number}\n\n![](folio-image:${name})\n`,
    blocks: [],
    images: [{ name, bbox: [10, 10, 100, 100], mime: 'image/png', data: withImageData ? PNG_BYTES : undefined }],
    stats: { engine: 'text', device: 'cpu', timeMs: 1, chars: 20 },
  };
}

const doc = (pages: PageResult[]) => ({ file: 'in/My Report.pdf', info: { pageCount: 2 }, pages, failures: [] });
const plan = (overrides: Partial<OutputPlan>): OutputPlan => ({ formats: ['md'], splitPages: false, images: false, ...overrides });

describe('output files', () => {
  it('extracts images into <stem>_assets and links them relative to the Markdown', async () => {
    const { files } = await outputFiles('My Report', doc([page(1, true), page(2, true)]), plan({ images: true }), '');
    expect(files.map((file) => file.name)).toEqual([
      'My Report_assets/page-1-image-1.png',
      'My Report_assets/page-2-image-1.png',
      'My Report.md',
    ]);
    expect(files[0]?.data).toBe(PNG_BYTES);
    expect(files[2]?.data).toContain('](My%20Report_assets/page-2-image-1.png)');
  });

  it('leaves images as placeholders when they are not extracted', async () => {
    const { files } = await outputFiles('r', doc([page(1, false)]), plan({}), '');
    expect(files.map((file) => file.name)).toEqual(['r.md']);
    expect(files[0]?.data).not.toContain('folio-image:');
    expect(files[0]?.data).not.toContain('_assets');
  });

  it('writes pages before the whole document, and per-page HTML only when HTML is asked for', async () => {
    const names = (await outputFiles('r', doc([page(1, false), page(2, false)]), plan({ formats: ['md', 'json'], splitPages: true }), '')).files.map((file) => file.name);
    expect(names).toEqual(['r_pg1.md', 'r_pg2.md', 'r.md', 'r.json']);
  });
});

describe('output names', () => {
  const claimFor = (names: OutputNames, file: string, pages: number[], outputPlan: OutputPlan) =>
    names.claim(file, (stem) => outputNames(stem, pages, outputPlan));

  it('embeds extracted figures in the Word file and links them from the LaTeX file, with warnings for one not extracted', async () => {
    const pages = [page(1, true), page(2, false)];
    const { files, warnings } = await outputFiles('My Report', doc(pages), plan({ formats: ['docx', 'tex'], images: true }), '');
    expect(files.map((file) => file.name)).toEqual(['My Report_assets/page-1-image-1.png', 'My Report.docx', 'My Report.tex']);
    const tex = files[2]!.data as string;
    expect(tex).toContain('\\includegraphics[width=0.200\\linewidth,keepaspectratio]{\\detokenize{My Report_assets/page-1-image-1.png}}');
    expect(files[1]!.data).toBeInstanceOf(Uint8Array);
    expect(warnings).toEqual([]);
  });

  it('numbers inputs that share a name, case-insensitively', () => {
    const names = new OutputNames();
    expect(claimFor(names, 'a/x.pdf', [1], plan({}))).toBe('x');
    expect(claimFor(names, 'b/x.pdf', [1], plan({}))).toBe('x-2');
    expect(claimFor(names, 'c/X.PDF', [1], plan({}))).toBe('X-3');
  });

  it('does not hand out a stem whose files another input already claimed through its page files', () => {
    const names = new OutputNames();
    const split = plan({ splitPages: true });
    expect(claimFor(names, 'x.pdf', [1, 2], split)).toBe('x');
    expect(claimFor(names, 'x_pg2.pdf', [1], split)).toBe('x_pg2-2');
  });

  it('never hands out a reserved name, such as an input sitting in the output folder', () => {
    const names = new OutputNames();
    names.reserve('paper.JSON');
    expect(claimFor(names, 'paper.json', [1], plan({ formats: ['md', 'json'] }))).toBe('paper-2');
  });

  it('takes the stem from the file name without its extension', () => {
    expect(stemOf('/data/2024 report.final.pdf')).toBe('2024 report.final');
    expect(stemOf('notes')).toBe('notes');
    expect(stemOf('.pdf')).toBe('pdf');
  });
});
