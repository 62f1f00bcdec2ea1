import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONVERT_OPTIONS, type ConvertOptions } from '../../shared/protocol.js';
import { fixturePdfPath } from '../../test/fixtures/build-fixtures.js';
import { DocumentSession } from './document-session.js';
import { closePdf, openPdf } from './pdf/open-pdf.js';
import { EngineRouter } from './router.js';

type Reader = { getTextContent: (...args: unknown[]) => Promise<unknown>; getAnnotations: (...args: unknown[]) => Promise<unknown> };

/** Pages PDFium's reader is asked for (the text engine reads with it where it opens the file). */
const pdfiumReads = vi.hoisted(() => ({ count: 0 }));
vi.mock('./pdf/pdfium-text.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./pdf/pdfium-text.js')>();
  return {
    ...original,
    openPdfiumDocument: (...args: Parameters<typeof original.openPdfiumDocument>) => {
      const document = original.openPdfiumDocument(...args);
      return {
        pageCount: document.pageCount,
        close: () => document.close(),
        readText: (page: number) => {
          pdfiumReads.count++;
          return document.readText(page);
        },
      };
    },
  };
});

/** pdf.js's page class, whose text-content reads are counted. */
async function pageClass(file: string): Promise<Reader> {
  const { pdf } = await openPdf(file);
  try {
    return Object.getPrototypeOf(await pdf.getPage(1)) as Reader;
  } finally {
    await closePdf(pdf);
  }
}

/** Converts every page, counting the text-content reads pdf.js and PDFium are asked for. */
async function convertCountingReads(file: string, options: Partial<ConvertOptions>) {
  const prototype = await pageClass(file);
  const read = prototype.getTextContent;
  const readAnnotations = prototype.getAnnotations;
  let reads = 0;
  let annotationReads = 0;
  pdfiumReads.count = 0;
  const spy = vi.spyOn(prototype, 'getTextContent').mockImplementation(function (this: unknown, ...args: unknown[]) {
    reads++;
    return read.apply(this, args);
  });
  const annotationSpy = vi.spyOn(prototype, 'getAnnotations').mockImplementation(function (this: unknown, ...args: unknown[]) {
    annotationReads++;
    return readAnnotations.apply(this, args);
  });
  const session = await DocumentSession.open(new EngineRouter(), file);
  const pages: { markdown: string; reason: string | undefined }[] = [];
  try {
    const all = Array.from({ length: session.info.pageCount }, (_, i) => i + 1);
    await session.convert(all, { ...DEFAULT_CONVERT_OPTIONS, ...options }, {
      started() {},
      delta() {},
      done: (result) => pages.push({ markdown: result.markdown, reason: result.stats.reason }),
      failed: (page, failure) => {
        throw new Error(`page ${page} failed: ${failure.message}`);
      },
    }, new AbortController().signal);
  } finally {
    spy.mockRestore();
    annotationSpy.mockRestore();
    await session.close();
  }
  return { pages, reads: reads + pdfiumReads.count, pdfjsReads: reads, annotationReads };
}

describe('auto routing of text pages', () => {
  it("reads each page's text layer once, routing and converting it, and converts it as the text engine does", async () => {
    const file = fixturePdfPath('running-headers');
    const auto = await convertCountingReads(file, { engine: 'auto' });
    expect(auto.pages).toHaveLength(4);
    expect(auto.pages.every((page) => page.reason?.includes('text'))).toBe(true);
    expect(auto.reads).toBe(4);
    const text = await convertCountingReads(file, { engine: 'text' });
    expect(auto.pages.map((page) => page.markdown)).toEqual(text.pages.map((page) => page.markdown));
  });

  it('reads the links of a page with its text, without asking pdf.js for its annotations (which would read the whole text again)', async () => {
    for (const engine of ['text', 'auto'] as const) {
      const { pages, pdfjsReads, annotationReads } = await convertCountingReads(fixturePdfPath('links'), { engine });
      expect(pages[0]?.markdown).toContain('published on the [open data portal](https://data.example.org/river-birds) under');
      expect(pages[0]?.markdown).toContain('go to [the survey office](mailto:survey@example.org).');
      expect(pdfjsReads).toBe(0);
      expect(annotationReads).toBe(0);
    }
  });
});
