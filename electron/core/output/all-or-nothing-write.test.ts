import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WriteError, keptAfter, writeAllOrNothing } from './all-or-nothing-write.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('writeAllOrNothing', () => {
  it('takes back the files it added when a later one cannot be put in place, and names the file it had already replaced', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-all-or-nothing-'));
    folders.push(folder);
    await writeFile(path.join(folder, 'a.md'), 'old a');
    // a folder where b.html should go: its data is written, its rename fails
    await mkdir(path.join(folder, 'b.html'));
    const files = ['a.md', 'new.md', 'b.html', 'c.json'].map((name) => ({ path: path.join(folder, name), data: `new ${name}` }));
    const error = await writeAllOrNothing(files).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WriteError);
    expect((error as WriteError).file).toBe(path.join(folder, 'b.html'));
    expect(keptAfter(error as WriteError)).toBe(`nothing else was written, but ${path.join(folder, 'a.md')} had already been replaced with the new version`);
    expect((await readdir(folder)).sort()).toEqual(['a.md', 'b.html']);
    expect(await readFile(path.join(folder, 'a.md'), 'utf8')).toBe('new a.md');
    expect(await readdir(path.join(folder, 'b.html'))).toEqual([]);
  });
});
