import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AES_PASSWORD, LOCKED_PASSWORD, writeSampleDocuments, type SampleDocuments } from './sample-documents.js';

const root = path.resolve(import.meta.dirname, '..');
const launcher = path.join(root, 'bin/folio.js');

let folder: string;
let docs: SampleDocuments;
let outCount = 0;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-cli-'));
  docs = await writeSampleDocuments(folder);
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a user would. `onStdout` sees stdout as it arrives; the CLI then runs in its
 * own process group, so a test can interrupt the group as a terminal's Ctrl-C does.
 */
function folio(args: readonly string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [launcher, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: onStdout !== undefined });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onStdout?.(stdout, child);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function freshOut(): string {
  return path.join(folder, `out-${++outCount}`);
}

const read = (file: string) => readFile(file, 'utf8');

describe('folio command line', () => {
  it('prints help and version, and exits 2 with a reason on usage errors', async () => {
    const help = await folio(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('folio convert <files...> -o <dir>');
    const version = await folio(['--version']);
    const manifest = JSON.parse(await read(path.join(root, 'package.json'))) as { version: string };
    expect(version.stdout.trim()).toBe(manifest.version);
    for (const [args, reason] of [
      [['convert', docs.notes], /-o <dir>/],
      [['convert', docs.notes, '-o', freshOut(), '--pages', '3-1'], /backwards/],
      [['convert', docs.notes, '-o', freshOut(), '--pages', '0'], /numbered from 1/],
      [['convert', docs.notes, '-o', freshOut(), '--format', 'odt'], /--format "odt"/],
      [['convert', docs.notes, '-o', freshOut(), '--frobnicate'], /frobnicate/],
      [['transmogrify'], /unknown command/],
    ] as const) {
      const run = await folio(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(reason);
    }
  });

  it('converts the good files of a batch, names each bad one with its reason, and exits 1', async () => {
    const out = freshOut();
    const run = await folio(['convert', docs.report, docs.notPdf, docs.empty, docs.truncated, docs.locked, docs.notes, '-o', out]);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n');
    expect(lines).toContain(`${docs.notPdf}: neither a PDF (no %PDF header) nor a page image (PNG, JPEG, TIFF, WebP, GIF, BMP).`);
    expect(lines).toContain(`${docs.empty}: the file is empty.`);
    expect(lines.find((line) => line.startsWith(`${docs.truncated}: `))).toMatch(/damaged/);
    expect(lines).toContain(`${docs.locked}: encrypted; give its password with --password.`);
    expect(await read(path.join(out, 'report.md'))).toContain('Chapter four');
    expect(await read(path.join(out, 'notes.md'))).toContain('Chapter alone');
    expect((await readdir(out)).sort()).toEqual(['notes.md', 'report.md']);
  });

  it('exits 0 when every file converted, and opens an encrypted file with --password', async () => {
    const out = freshOut();
    const run = await folio(['convert', docs.locked, docs.notes, '--password', LOCKED_PASSWORD, '-o', out]);
    expect(run.stderr).not.toMatch(/password/);
    expect(run.code).toBe(0);
    expect(await read(path.join(out, 'locked.md'))).toContain('Unlocked words');
  });

  it('opens an AES-256 file whose password is not ASCII (revision 5: pdf.js alone refuses it)', async () => {
    const out = freshOut();
    const run = await folio(['convert', docs.lockedAes, '--password', AES_PASSWORD, '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(await read(path.join(out, 'locked-aes.md'))).toContain('Words under AES');
    const wrong = await folio(['convert', docs.lockedAes, '--password', 'passwort', '-o', freshOut()]);
    expect(wrong.stderr).toContain(`${docs.lockedAes}: the password given does not open it.`);
  });

  it('says when the password given is wrong', async () => {
    const run = await folio(['convert', docs.locked, '--password', 'not it', '-o', freshOut()]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${docs.locked}: the password given does not open it.`);
  });

  it('converts only the pages asked for with --pages; of a shorter file, the pages it has, and says so', async () => {
    const out = freshOut();
    const run = await folio(['convert', docs.report, '--pages', '2-3', '-o', out]);
    expect(run.code).toBe(0);
    const markdown = await read(path.join(out, 'report.md'));
    expect(markdown).toContain('Chapter two');
    expect(markdown).toContain('Chapter three');
    expect(markdown).not.toContain('Chapter one');
    expect(markdown).not.toContain('Chapter four');
    const mixedOut = freshOut();
    const mixed = await folio(['convert', docs.notes, docs.report, '--pages', '1-3', '-o', mixedOut]);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain(`${docs.notes}: warning: has 1 page, so --pages 1-3 went past its end; converted pages 1.`);
    expect(await read(path.join(mixedOut, 'notes.md'))).toContain('Chapter alone');
    expect(await read(path.join(mixedOut, 'report.md'))).toContain('Chapter three');
    const none = await folio(['convert', docs.notes, docs.report, '--pages', '4-', '-o', freshOut()]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${docs.notes}: has 1 page, so --pages 4- selects none of them; nothing was written.`);
  });

  it('says on stderr which pages came out with no text', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([612, 792]);
    pdf.addPage([612, 792]).drawText('Words on the second page', { x: 72, y: 700, size: 18 });
    const file = path.join(folder, 'first-blank.pdf');
    await writeFile(file, await pdf.save());
    const out = freshOut();
    const run = await folio(['convert', file, '-o', out]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stderr.split('\n');
    expect(lines).toContain(`${file}: page 1: review: no text came out of it; check that nothing is on it.`);
    expect(lines.filter((line) => line.includes('page 2'))).toEqual([]);
    expect(await read(path.join(out, 'first-blank.md'))).toContain('Words on the second page');
  });

  it('writes <stem>_pg<N> files per page with --split-pages, HTML too when asked', async () => {
    const out = freshOut();
    const run = await folio(['convert', docs.report, '--split-pages', '--format', 'md,html,json', '-o', out]);
    expect(run.code).toBe(0);
    const pages = [1, 2, 3, 4].flatMap((page) => [`report_pg${page}.md`, `report_pg${page}.html`]);
    expect((await readdir(out)).sort()).toEqual([...pages, 'report.html', 'report.json', 'report.md'].sort());
    expect(await read(path.join(out, 'report_pg2.md'))).toContain('Chapter two');
    expect(await read(path.join(out, 'report_pg2.md'))).not.toContain('Chapter one');
    expect(await read(path.join(out, 'report_pg3.html'))).toMatch(/<h1[^>]*>Chapter three<\/h1>/);
    const json = JSON.parse(await read(path.join(out, 'report.json'))) as { pages: { page: number }[] };
    expect(json.pages.map((page) => page.page)).toEqual([1, 2, 3, 4]);
  });

  it('gives inputs with the same name distinct outputs instead of overwriting', async () => {
    const out = freshOut();
    const run = await folio(['convert', ...docs.sameNames, '--split-pages', '-o', out]);
    expect(run.code).toBe(0);
    expect(await read(path.join(out, 'same.md'))).toContain('Chapter alone');
    expect(await read(path.join(out, 'same-2.md'))).toContain('Chapter four');
    expect(await read(path.join(out, 'same_pg1.md'))).toContain('Chapter alone');
    expect(await read(path.join(out, 'same-2_pg1.md'))).toContain('Chapter one');
  });

  it('fails a file whose output cannot be written, leaves no temporary file, and writes the others', async () => {
    const out = freshOut();
    // A folder where report.md should go makes the final rename fail after the data was written.
    await mkdir(path.join(out, 'report.md'), { recursive: true });
    const run = await folio(['convert', docs.report, docs.notes, '-o', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^${escape(docs.report)}: cannot write ${escape(path.join(out, 'report.md'))} \\(\\w+\\)`, 'm'));
    expect((await readdir(out)).sort()).toEqual(['notes.md', 'report.md']);
    expect(await readdir(path.join(out, 'report.md'))).toEqual([]);
    expect(await read(path.join(out, 'notes.md'))).toContain('Chapter alone');
  });

  it('exits 1 with a clear line when the output folder cannot be created', async () => {
    const blocker = path.join(folder, 'a-file');
    await writeFile(blocker, 'not a folder');
    const run = await folio(['convert', docs.notes, '-o', path.join(blocker, 'out')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot create the output folder ${path.join(blocker, 'out')} (ENOTDIR: part of the path is a file, not a folder); choose another with -o.`);
  });

  it('prints one JSON event per line on stdout with --json, page stats but not page text', async () => {
    const run = await folio(['convert', docs.report, docs.notPdf, '--json', '-o', freshOut()]);
    expect(run.code).toBe(1);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.map((event) => event.event)).toEqual([
      'document-opened',
      ...[1, 2, 3, 4].flatMap(() => ['page-started', 'page-done']),
      'document-done',
      'document-failed',
      'summary',
    ]);
    const pageDone = events.find((event) => event.event === 'page-done');
    expect(pageDone).toMatchObject({ file: docs.report, page: 1, stats: { engine: 'text', chars: expect.any(Number) } });
    expect(JSON.stringify(pageDone)).not.toContain('Chapter one');
    expect(events.at(-1)).toMatchObject({ files: 2, filesFailed: 1, pagesDone: 4, pagesFailed: 0, cancelled: false });
    expect(events.find((event) => event.event === 'document-failed')).toMatchObject({ file: docs.notPdf, code: 'not-pdf' });
  });

  it('stops at Ctrl-C with exit 130, reports no page as failed, and writes nothing for the interrupted document', async () => {
    // Long enough that the interrupt lands mid-document: the report's pages 250 times over (the
    // text engine read all of 50 copies before a loaded machine delivered the signal).
    const copies = 250;
    const long = path.join(folder, 'long.pdf');
    execFileSync('pdfunite', [...Array.from({ length: copies }, () => docs.report), long]);
    const out = freshOut();
    let interrupted = false;
    const run = await folio(['convert', docs.notes, long, '--json', '-o', out], (stdout, child) => {
      if (!interrupted && stdout.includes(`"file":${JSON.stringify(long)},"page":2}`)) {
        interrupted = true;
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    expect(run.code).toBe(130);
    expect(run.stderr).not.toMatch(/crashed|page \d+:/);
    const events = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.at(-1)).toMatchObject({ event: 'summary', cancelled: true });
    expect(events.filter((event) => event.event === 'page-done' && event.file === long).length).toBeLessThan(copies * 4);
    expect(await readdir(out)).toEqual(['notes.md']);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
