import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSameContent } from './same-content.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function files(contents: Record<string, string>): Promise<Record<string, string>> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-same-'));
  folders.push(folder);
  const paths: Record<string, string> = {};
  for (const [name, text] of Object.entries(contents)) {
    paths[name] = path.join(folder, name);
    await writeFile(paths[name], text);
  }
  return paths;
}

describe('findSameContent', () => {
  it('finds the file with the same bytes under another name, not one of the same size that differs', async () => {
    const paths = await files({ 'report.pdf': '%PDF-1.7 report', 'other.pdf': '%PDF-1.7 others', 'copy.pdf': '%PDF-1.7 report' });
    expect(await findSameContent(paths['copy.pdf']!, [paths['other.pdf']!, paths['report.pdf']!])).toBe(paths['report.pdf']);
    expect(await findSameContent(paths['other.pdf']!, [paths['report.pdf']!])).toBeUndefined();
  });

  it('passes over a candidate that has gone and a file that cannot be read', async () => {
    const paths = await files({ 'a.pdf': 'same', 'b.pdf': 'same' });
    expect(await findSameContent(paths['a.pdf']!, [path.join(path.dirname(paths['a.pdf']!), 'gone.pdf'), paths['b.pdf']!])).toBe(paths['b.pdf']);
    expect(await findSameContent(path.join(path.dirname(paths['a.pdf']!), 'gone.pdf'), [paths['a.pdf']!])).toBeUndefined();
  });
});
