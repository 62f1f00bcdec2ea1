import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAIR_PROMPTS } from '../../shared/export/training-pairs.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { exportTrainingPairs, type PageRenderer } from './training-pairs-export.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

function reviewedDocument(id: string, file: string, text: string): WorkspaceDocument {
  return {
    id,
    path: file,
    name: path.basename(file),
    kind: 'pdf',
    addedAt: '2026-01-01T00:00:00Z',
    pages: [{ page: 1, state: 'done', engineMarkdown: text, reviewed: true }],
    converting: false,
  };
}

// a one-pixel PNG is all the export needs from a renderer
const renderer: PageRenderer = {
  render: async () => ({ png: Buffer.from('89504e470d0a1a0a', 'hex'), width: 1, height: 1 }),
};

describe('training pairs from documents of the same name', () => {
  it('gives each page image its own name (case ignored, as some file systems do) instead of failing on the clash', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-pairs-names-'));
    folders.push(folder);
    const documents = [reviewedDocument('abcdef12-0001', '/a/report.pdf', 'First report.'), reviewedDocument('abcdef12-0002', '/b/report.pdf', 'Second report.'), reviewedDocument('ABCDEF12-0003', '/c/Report.pdf', 'Third report.')];
    const outcome = await exportTrainingPairs(documents, { format: 'deepseek-ocr', prompt: PAIR_PROMPTS['deepseek-ocr'], imageSize: 64, folder, validationShare: 0, overwrite: false }, renderer);
    expect(outcome.kind, JSON.stringify(outcome)).toBe('written');
    expect((await readdir(path.join(folder, 'images'))).sort()).toEqual(['Report-ABCDEF12-p1-3.png', 'report-abcdef12-p1-2.png', 'report-abcdef12-p1.png'].sort());
    const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as { pairs: { image: string }[] };
    expect(new Set(manifest.pairs.map((pair) => pair.image)).size).toBe(3);
  });
});
