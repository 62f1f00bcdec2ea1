/**
 * The CLI end to end under a hostile model: a stand-in OpenAI-compatible server answers each page of
 * a PDF with one case of test/hostile-markdown.ts, and `folio convert --engine remote` writes every
 * format. `--json` stdout must hold only Folio's events (KaTeX's \message cannot add one), stderr no
 * raw control character, the .tex must compile with -shell-escape touching nothing outside its
 * folder, and the .docx must open in LibreOffice, both through to the last page.
 */

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../tools/bench/openai-test-server.js';
import { missingEnvironment, missingPrograms, PROGRAMS } from './environment.js';
import { runFolio } from './folio-process.js';
import { hostileMarkdownPages, LAST_PAGE_MARKER } from './hostile-markdown.js';
import { PAGE_HEIGHT, pageWidth, renderedWidth, writeWidthCodedPdf } from './remote-pages.js';
import { compileTex, pdfText } from './tex-compile.js';

const root = path.resolve(import.meta.dirname, '..');
const LONG_SIDE = 300;
const EVENTS = new Set(['document-opened', 'page-started', 'page-done', 'page-failed', 'document-done', 'document-failed', 'summary']);

let folder: string;
let server: TestServer;
let canary: string;
let touched: string;
let pages: string[];

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-hostile-'));
  const outside = await mkdtemp(path.join(os.tmpdir(), 'folio-outside-'));
  canary = path.join(outside, 'secret.tex');
  touched = path.join(outside, 'pwned');
  execFileSync('sh', ['-c', `printf 'CANARY SECRET TEXT\\n' > '${canary}'`]);
  pages = hostileMarkdownPages(canary, touched);
  await writeWidthCodedPdf(path.join(folder, 'hostile.pdf'), pages.length);
  // pages past the 12th are wider than tall: their long side is the width, and the height tells them apart
  const pageOf = (width: number, height: number) => {
    const distance = (page: number) => {
      const w = pageWidth(page);
      return w <= PAGE_HEIGHT ? Math.abs(renderedWidth(page, LONG_SIDE) - width) + Math.abs(LONG_SIDE - height) : Math.abs(LONG_SIDE - width) + Math.abs(Math.round((PAGE_HEIGHT * LONG_SIDE) / w) - height);
    };
    return pages.map((_, index) => index).sort((a, b) => distance(a + 1) - distance(b + 1))[0]!;
  };
  server = await startTestServer({ models: ['test-ocr'], answer: (request) => pages[pageOf(request.width, request.height)]! });
});

afterAll(async () => {
  await server?.close();
});

describe('folio convert with a hostile model', () => {
  it('writes every format; --json carries only Folio events; the .tex compiles safely with -shell-escape and the .docx opens, through the last page', { timeout: 900_000 }, async () => {
    const out = path.join(folder, 'out');
    const run = await runFolio(['convert', path.join(folder, 'hostile.pdf'), '-o', out, '--server', server.url, '--model', 'test-ocr', '--image-size', String(LONG_SIDE), '--concurrency', '4', '--format', 'md,html,json,docx,tex', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { event: string; pages?: number; file?: string });
    for (const event of events) expect(EVENTS.has(event.event), JSON.stringify(event)).toBe(true);
    expect(events.filter((event) => event.event === 'document-done')).toHaveLength(1);
    expect(events.filter((event) => event.event === 'page-failed')).toHaveLength(0);
    expect(events.filter((event) => event.event === 'page-done')).toHaveLength(pages.length);
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // the warnings quote formulas with their escape sequences written out
    expect(run.stderr).toMatch(/warning: .*\\x1b/);

    const tex = compileTex(out, 'hostile.tex', true);
    expect(tex.errors).toEqual([]);
    expect(tex.readOutside).toEqual([]);
    expect(tex.writtenOutside).toEqual([]);
    if (tex.commands) expect(tex.commands).toEqual([]);
    expect(existsSync(touched)).toBe(false);
    const texText = pdfText(tex.pdf);
    expect(texText).toContain(LAST_PAGE_MARKER);
    expect(texText).not.toContain('CANARY SECRET');

    // LibreOffice where installed; under CI its absence fails (test/environment.ts)
    if (missingEnvironment(PROGRAMS, missingPrograms({ soffice: 'libreoffice-writer-nogui' })) === null) {
      const office = path.join(folder, 'office');
      execFileSync('soffice', [`-env:UserInstallation=file://${folder}/profile`, '--headless', '--convert-to', 'pdf', '--outdir', office, path.join(out, 'hostile.docx')], { stdio: 'ignore', timeout: 600_000 });
      expect(pdfText(path.join(office, 'hostile.pdf'))).toContain(LAST_PAGE_MARKER);
    }
    expect(await readFile(path.join(out, 'hostile.md'), 'utf8')).toContain(LAST_PAGE_MARKER);
  });
});
