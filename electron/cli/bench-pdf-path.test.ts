import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchPdfPath } from './bench-pdf-path.js';

let root: string;
let pdfs: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-path-'));
  pdfs = path.join(root, 'bench/pdfs');
  await mkdir(path.join(pdfs, 'sub'), { recursive: true });
  await mkdir(path.join(root, 'secret'));
  await writeFile(path.join(pdfs, 'sub/a.pdf'), '%PDF-1.4');
  await writeFile(path.join(root, 'secret/secret.pdf'), '%PDF-1.4');
  await symlink('sub/a.pdf', path.join(pdfs, 'inside.pdf'));
  await symlink('sub', path.join(pdfs, 'folder'));
  await symlink('../../secret/secret.pdf', path.join(pdfs, 'out.pdf'));
  await symlink('../../secret/absent.pdf', path.join(pdfs, 'out-absent.pdf'));
  await symlink('../../secret', path.join(pdfs, 'outdir'));
});

describe('benchPdfPath', () => {
  it('finds the benchmark\'s own PDFs, through links that stay inside', async () => {
    expect(await benchPdfPath(pdfs, 'sub/a.pdf')).toEqual({ file: path.join(pdfs, 'sub/a.pdf') });
    expect(await benchPdfPath(pdfs, 'inside.pdf')).toEqual({ file: path.join(pdfs, 'sub/a.pdf') });
    expect(await benchPdfPath(pdfs, 'folder/a.pdf')).toEqual({ file: path.join(pdfs, 'sub/a.pdf') });
    expect(await benchPdfPath(pdfs, 'sub/../sub/a.pdf')).toEqual({ file: path.join(pdfs, 'sub/a.pdf') });
  });

  it('refuses every name that leads outside with the same words, whether or not the file there exists', async () => {
    const answers = await Promise.all(
      ['../../secret/secret.pdf', '../../secret/absent.pdf', '/etc/passwd', '../../etc/passwd', 'out.pdf', 'out-absent.pdf', 'outdir/secret.pdf', 'outdir/absent.pdf', 'sub/../../../secret/secret.pdf'].map(async (name) => [name, await benchPdfPath(pdfs, name)] as const),
    );
    for (const [name, answer] of answers) expect(answer, name).toEqual({ refused: `"${name}" is not a PDF inside ${pdfs}; a test may name only the benchmark's own PDFs` });
  });

  it('says a missing PDF inside the folder is missing', async () => {
    expect(await benchPdfPath(pdfs, 'gone.pdf')).toEqual({ refused: `no such file ${path.join(pdfs, 'gone.pdf')}` });
  });
});
