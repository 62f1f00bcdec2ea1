/**
 * `folio bench DIR --outputs MDDIR`: the Markdown another converter wrote for the benchmark's
 * pages, found by olmOCR-Bench's names: `<pdf stem>_pg<N>_repeat<R>.md` (one file per repeat, the
 * layout olmOCR's runbench writes), or `<pdf stem>_pg<N>.md`. The stem is the PDF's path under
 * `pdfs/` without `.pdf`, as olmOCR matches it against each file's path under MDDIR; a PDF in a
 * subfolder is also found by its bare name (as `folio bench -o` writes it).
 */

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { PageOutput } from '../../shared/olmocr-bench/bench-score.js';
import { readBoundedFile } from '../core/bounded-file.js';

/** A page's Markdown is text a converter wrote: a few hundred kilobytes at most; a larger file is not read. */
const MAX_PAGE_BYTES = 64 * 1024 * 1024;

/** Each tested page's output (`pdf#page`), or why there is none, and the PDFs with no file at all. */
export interface ReadOutputs {
  outputs: Map<string, PageOutput>;
  /** PDFs the tests name that have no Markdown file for any page (olmOCR refuses such a candidate). */
  pdfsWithoutFiles: string[];
}

const PAGE_FILE = /^(.*)_pg(\d+)(?:_repeat\d+)?\.md$/;

export async function readPageOutputs(mdDir: string, pagesByPdf: ReadonlyMap<string, ReadonlySet<number>>, key: (pdf: string, page: number) => string): Promise<ReadOutputs> {
  const files = (await readdir(mdDir, { recursive: true })).map((name) => name.split(path.sep).join('/')).filter((name) => name.endsWith('.md')).sort();
  // stem (path without extension) -> page -> files
  const byStem = new Map<string, Map<number, string[]>>();
  for (const file of files) {
    const match = PAGE_FILE.exec(file);
    if (!match) continue;
    const pages = byStem.get(match[1]!) ?? byStem.set(match[1]!, new Map()).get(match[1]!)!;
    const page = Number(match[2]);
    pages.set(page, [...(pages.get(page) ?? []), file]);
  }
  const outputs = new Map<string, PageOutput>();
  const pdfsWithoutFiles: string[] = [];
  for (const [pdf, pages] of pagesByPdf) {
    const stem = pdf.replace(/\.pdf$/i, '');
    const found = byStem.get(stem) ?? byStem.get(path.posix.basename(stem));
    if (!found) pdfsWithoutFiles.push(pdf);
    for (const page of pages) {
      const pageFiles = found?.get(page);
      if (!pageFiles) {
        outputs.set(key(pdf, page), { failure: `no Markdown for it in ${mdDir} (${stem}_pg${page}_repeat1.md or ${stem}_pg${page}.md)` });
        continue;
      }
      // read as Python reads text files: any line ending becomes \n
      const texts = await Promise.all(pageFiles.map(async (file) => (await readBoundedFile(path.join(mdDir, file), MAX_PAGE_BYTES, 'page of Markdown')).toString('utf8').replace(/\r\n?/g, '\n')));
      outputs.set(key(pdf, page), texts.length === 1 ? { markdown: texts[0]! } : { repeats: texts });
    }
  }
  return { outputs, pdfsWithoutFiles };
}
