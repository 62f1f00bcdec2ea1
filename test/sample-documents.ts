/**
 * Documents for the CLI and supervisor tests: small PDFs printed by Chromium, plus the kinds of bad
 * input a batch meets (not a PDF, empty, truncated, encrypted).
 */

import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { aes256Pdf, encryptedPdf } from './encrypted-pdf.js';
import { launchPdfPrinter } from './fixtures/print-pdf.js';

export const LOCKED_PASSWORD = 'open sesame';
/** Not ASCII: the password of `docs.lockedAes`. */
export const AES_PASSWORD = 'pässwört';

export interface SampleDocuments {
  /** Four pages, "Chapter one" to "Chapter four", one per page. */
  report: string;
  /** One page. */
  notes: string;
  /** Two different files both named `same.pdf`, in folders `a/` and `b/`. */
  sameNames: [string, string];
  notPdf: string;
  empty: string;
  truncated: string;
  /** Encrypted with LOCKED_PASSWORD; its page says "Unlocked words". */
  locked: string;
  /** AES-256, revision 5, encrypted with AES_PASSWORD; its page says "Words under AES". */
  lockedAes: string;
}

const CHAPTERS = ['one', 'two', 'three', 'four'];

function chapterHtml(chapters: readonly string[]): string {
  const sections = chapters.map(
    (name) => `<section style="break-after: page"><h1>Chapter ${name}</h1><p>The ${name} chapter has a paragraph of plain words.</p></section>`,
  );
  return `<!doctype html><html><head><title>Sample</title></head><body>${sections.join('')}</body></html>`;
}

export async function writeSampleDocuments(folder: string): Promise<SampleDocuments> {
  await mkdir(path.join(folder, 'a'), { recursive: true });
  await mkdir(path.join(folder, 'b'), { recursive: true });
  const docs: SampleDocuments = {
    report: path.join(folder, 'report.pdf'),
    notes: path.join(folder, 'notes.pdf'),
    sameNames: [path.join(folder, 'a', 'same.pdf'), path.join(folder, 'b', 'same.pdf')],
    notPdf: path.join(folder, 'not-a-pdf.pdf'),
    empty: path.join(folder, 'empty.pdf'),
    truncated: path.join(folder, 'truncated.pdf'),
    locked: path.join(folder, 'locked.pdf'),
    lockedAes: path.join(folder, 'locked-aes.pdf'),
  };
  const printer = await launchPdfPrinter();
  try {
    await printer.printHtml(chapterHtml(CHAPTERS), docs.report);
    await printer.printHtml(chapterHtml(['alone']), docs.notes);
  } finally {
    await printer.close();
  }
  await copyFile(docs.notes, docs.sameNames[0]);
  await copyFile(docs.report, docs.sameNames[1]);
  await writeFile(docs.notPdf, 'These are notes in plain text, saved with the wrong extension.\n');
  await writeFile(docs.empty, '');
  const report = await readFile(docs.report);
  await writeFile(docs.truncated, report.subarray(0, 300));
  await writeFile(docs.locked, encryptedPdf(LOCKED_PASSWORD, 'Unlocked words'));
  await writeFile(docs.lockedAes, aes256Pdf(AES_PASSWORD, 'Words under AES'));
  return docs;
}
