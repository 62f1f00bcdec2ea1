import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecent, saveRecent, withRecent } from './recent-documents.js';

describe('recent documents', () => {
  it('puts the newest first without repeats and keeps only a few', () => {
    expect(withRecent(['/a.pdf', '/b.pdf', '/c.pdf'], '/b.pdf')).toEqual(['/b.pdf', '/a.pdf', '/c.pdf']);
    expect(withRecent(['/a.pdf', '/b.pdf'], '/c.pdf', 2)).toEqual(['/c.pdf', '/a.pdf']);
  });

  it('reads back what it saved, and an empty list from a damaged file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-recent-'));
    try {
      expect(await loadRecent(dir)).toEqual([]);
      await saveRecent(dir, ['/a.pdf', '/b.pdf']);
      expect(await loadRecent(dir)).toEqual(['/a.pdf', '/b.pdf']);
      await writeFile(path.join(dir, 'recent-documents.json'), '{"not": "a list"');
      expect(await loadRecent(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
