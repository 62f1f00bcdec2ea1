import { chmod, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExportFormat, ExportRequest } from '../../shared/app-api.js';
import type { PageResult } from '../../shared/page.js';
import type { WorkspaceDocument, WorkspacePage } from '../../shared/workspace.js';
import { writeDurably } from '../core/output/all-or-nothing-write.js';
import { needs, NOT_ROOT } from '../../test/environment.js';
import { exportDocument, exportDocuments, type ExportSources } from './document-export.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) {
    await chmod(folder, 0o755).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-export-'));
  folders.push(folder);
  return folder;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function result(page: number, markdown: string, imageName?: string): PageResult {
  return {
    page,
    width: 612,
    height: 792,
    markdown,
    blocks: [],
    images: imageName ? [{ name: imageName, bbox: [0, 0, 1, 1], mime: 'image/png' }] : [],
    stats: { engine: 'text', device: 'cpu', timeMs: 1, chars: markdown.length },
  };
}

function donePage(page: number, markdown: string, extra: Partial<WorkspacePage> = {}, imageName?: string): WorkspacePage {
  return { page, state: 'done', engineMarkdown: markdown, reviewed: false, result: result(page, markdown, imageName), ...extra };
}

const report: WorkspaceDocument = {
  id: 'doc',
  path: '/somewhere/Quarterly report.pdf',
  name: 'Quarterly report.pdf',
  kind: 'pdf',
  addedAt: '2026-01-01T00:00:00.000Z',
  info: { pageCount: 3, title: 'Quarterly report' },
  converting: false,
  pages: [
    donePage(1, '# Results\n\nRevenue grew.'),
    donePage(2, 'Engine text with a figure:\n\n![chart](folio-image:page-2-image-1.png)', { editedMarkdown: 'Corrected text with a figure:\n\n![chart](folio-image:page-2-image-1.png)' }, 'page-2-image-1.png'),
    { page: 3, state: 'pending', engineMarkdown: '', reviewed: false },
  ],
};

const sources: ExportSources = {
  readImage: async (name) => {
    if (name !== 'page-2-image-1.png') throw new Error(`no image ${name}`);
    return PNG;
  },
  mathCss: async () => '.katex{}',
};

function request(folder: string, changes: Partial<ExportRequest> = {}): ExportRequest {
  return { docId: 'doc', formats: ['md', 'html'], pageMarkers: false, assets: true, folder, overwrite: false, ...changes };
}

describe('exportDocuments', () => {
  const letter = (id: string, file: string, text: string): WorkspaceDocument => ({
    id,
    path: file,
    name: path.basename(file),
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00.000Z',
    info: { pageCount: 2 },
    converting: false,
    pages: [donePage(1, `${text}, page one.`), donePage(2, `${text}, page two.`)],
  });
  const choices = (folder: string) => ({ formats: ['md', 'docx', 'tex'] as ExportFormat[], pageMarkers: true, assets: false, folder, overwrite: false });

  it('writes each document whole to files of its own name, with visible page breaks, numbering two of one name', async () => {
    const folder = await tempFolder();
    const unconverted: WorkspaceDocument = { ...letter('c', '/c/draft.pdf', 'Draft'), pages: [{ page: 1, state: 'pending', engineMarkdown: '', reviewed: false }] };
    const documents = [letter('a', '/a/letter.pdf', 'First letter'), letter('b', '/b/letter.pdf', 'Second letter'), unconverted].map((document) => ({ document, sources }));
    const outcome = await exportDocuments(documents, { ...choices(folder), formats: ['md', 'docx', 'tex'] });
    expect(outcome.kind).toBe('written');
    expect(outcome.kind === 'written' && outcome.warnings).toEqual(['draft.pdf: left out, it has no converted text yet.']);
    expect((await readdir(folder)).sort()).toEqual(['letter (2).docx', 'letter (2).md', 'letter (2).tex', 'letter.docx', 'letter.md', 'letter.tex']);
    expect(await readFile(path.join(folder, 'letter (2).md'), 'utf8')).toBe('<!-- page 1 -->\n*Page 1*\n\nSecond letter, page one.\n\n---\n\n<!-- page 2 -->\n*Page 2*\n\nSecond letter, page two.\n');
    expect(await readFile(path.join(folder, 'letter.tex'), 'utf8')).toMatch(/First letter, page one\.\n\n\\newpage\n\nFirst letter, page two\./);
    const docx = strFromU8(unzipSync(new Uint8Array(await readFile(path.join(folder, 'letter.docx'))))['word/document.xml']!);
    // one Word page break, between the two pages
    expect(docx.match(/<w:br w:type="page"\/>/g)).toHaveLength(1);
  });

  it('asks before replacing any of the files and fails when no document has text', async () => {
    const folder = await tempFolder();
    await writeFile(path.join(folder, 'letter.md'), 'mine');
    const documents = [letter('a', '/a/letter.pdf', 'One'), letter('b', '/b/memo.pdf', 'Two')].map((document) => ({ document, sources }));
    expect(await exportDocuments(documents, { ...choices(folder), formats: ['md'] })).toEqual({ kind: 'would-overwrite', files: [path.join(folder, 'letter.md')] });
    expect(await readdir(folder)).toEqual(['letter.md']);
    const empty = { ...letter('c', '/c/x.pdf', 'x'), pages: [] };
    expect(await exportDocuments([{ document: empty, sources }, { document: { ...empty, id: 'd' }, sources }], choices(folder))).toMatchObject({ kind: 'failed', message: expect.stringContaining('None of the chosen documents') });
  });
});

describe('exportDocument', () => {
  it('writes the pages as the user sees them, edits included, with figures in an assets folder the files link to', async () => {
    const folder = await tempFolder();
    const outcome = await exportDocument(report, request(folder, { pageMarkers: true }), sources);
    const assets = path.join(folder, 'Quarterly report_assets', 'page-2-image-1.png');
    expect(outcome).toEqual({
      kind: 'written',
      files: [assets, path.join(folder, 'Quarterly report.md'), path.join(folder, 'Quarterly report.html')],
    });
    expect(await readFile(path.join(folder, 'Quarterly report.md'), 'utf8')).toBe(
      '<!-- page 1 -->\n*Page 1*\n\n# Results\n\nRevenue grew.\n\n---\n\n<!-- page 2 -->\n*Page 2*\n\nCorrected text with a figure:\n\n![chart](Quarterly%20report_assets/page-2-image-1.png)\n',
    );
    expect(new Uint8Array(await readFile(assets))).toEqual(PNG);
    const html = await readFile(path.join(folder, 'Quarterly report.html'), 'utf8');
    expect(html).toContain('<title>Quarterly report</title>');
    expect(html).toContain('src="Quarterly%20report_assets/page-2-image-1.png"');
  });

  it('exports only the chosen pages, with placeholders for figures when no assets are asked for', async () => {
    const folder = await tempFolder();
    await exportDocument(report, request(folder, { formats: ['md'], pages: [2], assets: false }), sources);
    expect(await readdir(folder)).toEqual(['Quarterly report.md']);
    expect(await readFile(path.join(folder, 'Quarterly report.md'), 'utf8')).toBe('Corrected text with a figure:\n\n(image on page 2, not exported: chart)\n');
  });

  it('marks a page that failed where it belongs, in the Markdown and the HTML, unless the user wrote it themselves', async () => {
    const crashed = { code: 'engine-crashed' as const, message: 'the engine crashed while reading it (signal SIGKILL).' };
    const withLostPage: WorkspaceDocument = {
      ...report,
      info: { pageCount: 4 },
      pages: [
        donePage(1, 'First.'),
        { page: 2, state: 'failed', engineMarkdown: '', reviewed: false, failure: crashed },
        { page: 3, state: 'failed', engineMarkdown: '', editedMarkdown: 'Typed in by hand.', reviewed: false, failure: crashed },
        donePage(4, 'Last.'),
      ],
    };
    const folder = await tempFolder();
    await exportDocument(withLostPage, request(folder), sources);
    expect(await readFile(path.join(folder, 'Quarterly report.md'), 'utf8')).toBe(
      'First.\n\n> **Page 2 could not be converted:** the engine crashed while reading it (signal SIGKILL).\n\nTyped in by hand.\n\nLast.\n',
    );
    expect(await readFile(path.join(folder, 'Quarterly report.html'), 'utf8')).toContain(
      '<blockquote>\n<p><strong>Page 2 could not be converted:</strong> the engine crashed while reading it (signal SIGKILL).</p>\n</blockquote>',
    );
  });

  it('refuses to replace existing files unless asked, naming them and writing nothing', async () => {
    const folder = await tempFolder();
    await writeFile(path.join(folder, 'Quarterly report.html'), 'the user’s own page');
    const refused = await exportDocument(report, request(folder), sources);
    expect(refused).toEqual({ kind: 'would-overwrite', files: [path.join(folder, 'Quarterly report.html')] });
    expect(await readdir(folder)).toEqual(['Quarterly report.html']);
    expect(await readFile(path.join(folder, 'Quarterly report.html'), 'utf8')).toBe('the user’s own page');

    const replaced = await exportDocument(report, request(folder, { overwrite: true }), sources);
    expect(replaced.kind).toBe('written');
    expect(await readFile(path.join(folder, 'Quarterly report.html'), 'utf8')).toContain('Revenue grew.');
  });

  it('fails with a clear message on a full disk and leaves no file, temp file or assets folder behind', async () => {
    const folder = await tempFolder();
    let writes = 0;
    const fullDisk: ExportSources = {
      ...sources,
      write: async (file, data) => {
        if (++writes === 3) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        await writeDurably(file, data);
      },
    };
    const outcome = await exportDocument(report, request(folder), fullDisk);
    expect(outcome).toEqual({
      kind: 'failed',
      message: `cannot write ${path.join(folder, 'Quarterly report.html')} (ENOSPC); nothing was written. The disk is full: free some space or choose another folder.`,
    });
    expect(await readdir(folder)).toEqual([]);
  });

  it('fails with a clear message when the file system is read-only', async () => {
    const folder = await tempFolder();
    const readOnly: ExportSources = {
      ...sources,
      write: async () => {
        throw Object.assign(new Error('read-only file system'), { code: 'EROFS' });
      },
    };
    const outcome = await exportDocument(report, request(folder), readOnly);
    expect(outcome.kind === 'failed' && outcome.message).toMatch(/page-2-image-1\.png \(EROFS\); nothing was written\. The folder cannot be written to: choose another folder\.$/);
    expect(await readdir(folder)).toEqual([]);
  });

  const root = process.getuid?.() === 0 ? 'running as root, whom file permissions do not stop' : null;
  it('fails with a clear message in a read-only folder', needs(NOT_ROOT, root), async () => {
    const folder = await tempFolder();
    const readOnly = path.join(folder, 'read-only');
    await mkdir(readOnly, { mode: 0o555 });
    const outcome = await exportDocument(report, request(readOnly, { assets: false }), sources);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.message).toMatch(/\(EACCES\); nothing was written\. The folder cannot be written to/);
    expect(await readdir(readOnly)).toEqual([]);
  });

  it('writes Word and LaTeX files of the edited text, with the figure embedded and linked', async () => {
    const folder = await tempFolder();
    const outcome = await exportDocument(report, request(folder, { formats: ['docx', 'tex'] }), sources);
    expect(outcome).toEqual({
      kind: 'written',
      files: [path.join(folder, 'Quarterly report_assets', 'page-2-image-1.png'), path.join(folder, 'Quarterly report.docx'), path.join(folder, 'Quarterly report.tex')],
    });
    const tex = await readFile(path.join(folder, 'Quarterly report.tex'), 'utf8');
    expect(tex).toContain('Corrected text with a figure:');
    expect(tex).not.toContain('Engine text');
    expect(tex).toContain('\\includegraphics[width=0.002\\linewidth,keepaspectratio]{\\detokenize{Quarterly report_assets/page-2-image-1.png}}');
    const docx = await readFile(path.join(folder, 'Quarterly report.docx'));
    expect(docx.subarray(0, 2).toString()).toBe('PK');
  });

  it('exports the rest with a warning naming the page when a figure cannot be read from the workspace', async () => {
    const folder = await tempFolder();
    const outcome = await exportDocument(report, request(folder, { formats: ['docx', 'md'] }), { ...sources, readImage: async () => Promise.reject(new Error('ENOENT: no such file')) });
    expect(outcome).toMatchObject({ kind: 'written', files: [path.join(folder, 'Quarterly report.docx'), path.join(folder, 'Quarterly report.md')] });
    expect(outcome.kind === 'written' && outcome.warnings).toEqual([
      'page 2: the figure page-2-image-1.png could not be read from the workspace (ENOENT: no such file); a placeholder stands in its place. Convert the page again to get it back.',
    ]);
    expect(await readFile(path.join(folder, 'Quarterly report.md'), 'utf8')).toContain('(image on page 2, not exported: chart)');
  });

  it('says so when the chosen pages have no text yet', async () => {
    const outcome = await exportDocument(report, request(await tempFolder(), { pages: [3] }), sources);
    expect(outcome).toEqual({ kind: 'failed', message: 'Quarterly report.pdf: the chosen pages have no converted text yet; convert them first, then export.' });
  });
});
