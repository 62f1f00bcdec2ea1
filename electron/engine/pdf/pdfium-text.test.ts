import { readFile } from 'node:fs/promises';
import { AnnotationMode, getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { encryptedPdf } from '../../../test/encrypted-pdf.js';
import { assemblePdf, pdfStream } from '../../../test/hand-built-pdf.js';
import { fixturePdfPath } from '../../../test/fixtures/build-fixtures.js';
import { sourcePdfPath } from '../../../test/scans/scan-fixtures.js';
import type { Matrix } from '../text/affine.js';
import { drawingFromObjects } from '../text/drawing.js';
import { readDrawing } from '../text/operator-drawing.js';
import { readFontFacts } from '../text/font-facts.js';
import { createPageFrame } from '../text/page-frame.js';
import { dominantQuadrant, readTextRuns, type TextContentLike } from '../text/text-runs.js';
import { loadPdfium, openPdfiumDocument, PdfiumOpenError } from './pdfium-text.js';

type Pdfium = Awaited<ReturnType<typeof loadPdfium>>;
let pdfium: Pdfium;

beforeAll(async () => {
  pdfium = await loadPdfium();
});

async function withPdfjs<T>(file: string, read: (pdf: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const pdf = await getDocument({ data: new Uint8Array(await readFile(file)), verbosity: 0 }).promise;
  try {
    return await read(pdf);
  } finally {
    await pdf.destroy();
  }
}

/**
 * The page's lines of text as the layout sees them: runs in reading order, one string per
 * baseline, without spaces or soft hyphens (pdf.js ends an item at a soft hyphen, PDFium does not).
 */
function lines(content: TextContentLike, transform: Matrix, width: number, height: number): string[] {
  const frame = createPageFrame(transform, width, height, dominantQuadrant(content, transform));
  const runs = readTextRuns(content, frame.fromUser, (_, family) => readFontFacts(undefined, family));
  const byLine = new Map<number, typeof runs>();
  for (const run of runs) {
    const key = Math.round((run.y0 + run.y1) / 4);
    byLine.set(key, [...(byLine.get(key) ?? []), run]);
  }
  return [...byLine.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, line]) => line.sort((a, b) => a.x0 - b.x0).map((run) => run.text).join('').replace(/[\s\u00AD]+/g, ''));
}

describe('a page read with PDFium', () => {
  for (const name of ['table-simple', 'landscape-table', 'two-columns', 'hyphenation']) {
    it(`gives ${name}'s lines of text as pdf.js does`, async () => {
      const bytes = new Uint8Array(await readFile(fixturePdfPath(name)));
      const document = openPdfiumDocument(pdfium, bytes);
      try {
        await withPdfjs(fixturePdfPath(name), async (pdf) => {
          const page = await pdf.getPage(1);
          const viewport = page.getViewport({ scale: 1 });
          const transform = viewport.transform as unknown as Matrix;
          const expected = lines((await page.getTextContent()) as TextContentLike, transform, viewport.width, viewport.height);
          expect(lines(document.readText(1), transform, viewport.width, viewport.height)).toEqual(expected);
        });
      } finally {
        document.close();
      }
    });
  }

  for (const name of ['table-simple', 'landscape-table', 'table-spans']) {
    it(`finds ${name}'s ruling lines where pdf.js's operator list has them`, async () => {
      const document = openPdfiumDocument(pdfium, new Uint8Array(await readFile(fixturePdfPath(name))));
      try {
        await withPdfjs(fixturePdfPath(name), async (pdf) => {
          const page = await pdf.getPage(1);
          const viewport = page.getViewport({ scale: 1 });
          const expected = readDrawing(await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE }), viewport).rules;
          const drawn = document.readText(1).drawing!;
          const rules = drawingFromObjects(drawn.paths, drawn.images, viewport).rules;
          expect(expected.length).toBeGreaterThan(0);
          // The same rules, to within half a point (PDFium's matrices are single precision).
          expect(rules).toHaveLength(expected.length);
          for (const rule of expected) {
            const near = rules.filter((r) => r.orientation === rule.orientation && [r.x0 - rule.x0, r.y0 - rule.y0, r.x1 - rule.x1, r.y1 - rule.y1].every((d) => Math.abs(d) <= 0.5));
            expect(near, JSON.stringify(rule)).toHaveLength(1);
          }
        });
      } finally {
        document.close();
      }
    });
  }

  it('tells monospace fonts by their letters: code is monospace, Chinese set full width is not', async () => {
    for (const [file, monospace] of [
      [fixturePdfPath('code-block'), true],
      [sourcePdfPath('chinese-200'), false],
    ] as const) {
      const document = openPdfiumDocument(pdfium, new Uint8Array(await readFile(file)));
      try {
        const content = document.readText(1);
        const fontsOfText = new Set(content.items.filter((item) => /[\p{L}]{3}/u.test(item.str)).map((item) => item.fontName));
        expect([...fontsOfText].some((font) => content.fonts.get(font)?.monospace), file).toBe(monospace);
      } finally {
        document.close();
      }
    }
  });

  it('keeps a hyphen that ends a line, which PDFium marks as U+0002', async () => {
    const document = openPdfiumDocument(pdfium, new Uint8Array(await readFile(fixturePdfPath('hyphenation'))));
    try {
      const texts = document.readText(1).items.map((item) => item.str);
      expect(texts.some((text) => text.endsWith('long-'))).toBe(true);
      expect(texts.join('')).not.toContain('\u0002');
    } finally {
      document.close();
    }
  });
});

describe("a page's links read with PDFium", () => {
  it("gives pdf.js's web links: address, rectangle and the text each overlays", async () => {
    const file = fixturePdfPath('links');
    const document = openPdfiumDocument(pdfium, new Uint8Array(await readFile(file)));
    try {
      const links = document.readText(1).links ?? [];
      const expected = await withPdfjs(file, async (pdf) => (await (await pdf.getPage(1)).getAnnotations()) as { subtype: string; url?: string; rect: number[]; overlaidText?: string }[]);
      const web = expected.filter((annotation) => annotation.subtype === 'Link' && annotation.url);
      expect(web.length).toBe(4);
      expect(links.map((link) => [link.url, link.overlaidText])).toEqual(web.map((link) => [link.url, link.overlaidText]));
      links.forEach((link, i) => (link.rect as number[]).forEach((value, k) => expect(value).toBeCloseTo(web[i]!.rect[k]!, 1)));
    } finally {
      document.close();
    }
  });

  it('reads at most 1,000 web links of a page that has 20,000, the first over its words', () => {
    const annots = Array.from({ length: 20_000 }, (_, i) => `<< /Type /Annot /Subtype /Link /Rect [72 ${690 + (i % 40)} 160 ${712 + (i % 40)}] /A << /S /URI /URI (https://example.org/${i}) >> >>`);
    const bytes = assemblePdf(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R /Resources << /Font << /F1 3 0 R >> >> /Annots [${annots.join(' ')}] >>`,
        pdfStream(Buffer.from('BT /F1 24 Tf 72 700 Td (Portal) Tj ET')),
      ],
      '/Root 1 0 R',
    );
    const document = openPdfiumDocument(pdfium, new Uint8Array(bytes));
    try {
      const links = document.readText(1).links ?? [];
      expect(links).toHaveLength(1000);
      expect(links[0]).toMatchObject({ url: 'https://example.org/0', overlaidText: 'Portal' });
    } finally {
      document.close();
    }
  });
});

describe('a document opened with PDFium', () => {
  const password = 'hunter2';
  const locked = new Uint8Array(encryptedPdf(password, 'Words behind a password'));

  it('opens an encrypted file with its password', () => {
    const document = openPdfiumDocument(pdfium, locked, password);
    try {
      expect(document.readText(1).items.map((item) => item.str).join(' ')).toContain('Words behind a password');
    } finally {
      document.close();
    }
  });

  it('says a password is needed when none is given, and when the one given is wrong', () => {
    for (const given of [undefined, 'wrong']) {
      const error = (() => {
        try {
          openPdfiumDocument(pdfium, locked, given);
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(PdfiumOpenError);
      expect((error as PdfiumOpenError).passwordError).toBe(true);
    }
  });

  it('refuses bytes that are no PDF, without a password error', () => {
    const error = (() => {
      try {
        openPdfiumDocument(pdfium, new TextEncoder().encode('%PDF-1.4\nnot really a PDF at all'));
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(PdfiumOpenError);
    expect((error as PdfiumOpenError).passwordError).toBe(false);
  });

  it('cannot be read once closed', async () => {
    const document = openPdfiumDocument(pdfium, new Uint8Array(await readFile(fixturePdfPath('table-simple'))));
    document.close();
    expect(() => document.readText(1)).toThrow(/closed/);
  });
});
