/**
 * The Word export under hostile input: every page of test/hostile-markdown.ts in one .docx that is
 * well-formed XML and that LibreOffice opens and renders through to the last page, with a warning for
 * each thing that had to change (characters XML forbids, a table wider than Word allows, quotes
 * nested past the page's width).
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentDocx } from '../shared/export/docx.js';
import { hostileMarkdownPages, LAST_PAGE_MARKER } from './hostile-markdown.js';
import { missingPrograms, needs, PROGRAMS } from './environment.js';
import { pdfText } from './tex-compile.js';

const office = missingPrograms({ soffice: 'libreoffice-writer-nogui', pdftotext: 'poppler-utils' });

describe('DOCX under hostile input', () => {
  it('opens in LibreOffice with every page, each change warned', { ...needs(PROGRAMS, office), timeout: 600_000 }, async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'folio-docx-hostile-'));
    const pages = hostileMarkdownPages(path.join(folder, 'secret.txt'), path.join(folder, 'pwned')).map((markdown, index) => ({ page: index + 1, markdown }));
    const { data, warnings } = await documentDocx(pages, { title: 'Hostile \uffff title', image: () => undefined });
    writeFileSync(path.join(folder, 'hostile.docx'), data);
    // a profile of its own, so a LibreOffice already running elsewhere does not take the job
    execFileSync('soffice', [`-env:UserInstallation=file://${folder}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', folder, path.join(folder, 'hostile.docx')], { stdio: 'ignore', timeout: 500_000 });
    const text = pdfText(path.join(folder, 'hostile.pdf'));
    expect(text).toContain(LAST_PAGE_MARKER);
    expect(text).toContain('Characters XML forbids');
    expect(text).toMatch(/h9999/);
    const said = warnings.map((warning) => `page ${warning.page}: ${warning.message}`).join('\n');
    expect(said).toMatch(/page 7: characters a Word file cannot hold \(U\+001B/);
    expect(said).toMatch(/page 9: characters a Word file cannot hold \(U\+FFFF, U\+FFFE, U\+D800, U\+000B\)/);
    expect(said).toMatch(/page 14: a table of 10000 columns is wider than Word allows \(63\); it was written in 667 parts/);
    expect(said).not.toMatch(/page 13: a table/);
    expect(said).toMatch(/page 15: quotes nested deeper than 6 levels/);
  });
});
