/**
 * The `lite` OCR engine and `auto`'s page-by-page routing on scans the project makes from its own
 * fixtures (test/scans/): character error rates under measured limits, a mixed PDF routed page by
 * page, a scan under a wrong invisible OCR layer sent to OCR, and an image file read by OCR.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { closePpOcrModels } from '../electron/engine/lite/ppocr-models.js';
import { closeTesseractWorkers } from '../electron/engine/lite/tesseract-reader.js';
import { openPdf } from '../electron/engine/pdf/open-pdf.js';
import { scannedImage } from '../electron/engine/raster/scan-image.js';
import { EngineRouter } from '../electron/engine/router.js';
import { characterErrorRate } from './scans/character-error-rate.js';
import { convertPages } from './scans/convert-pages.js';
import { SCAN_JPEG, scanPath, sourcePdfPath, SCANS, type ScanName } from './scans/scan-fixtures.js';

const router = new EngineRouter();

/**
 * Highest character error rate that passes, per scan: measured (in the comment) and set a little
 * above, so a regression fails. Chinese is compared without spaces.
 */
const MAX_CER: Record<ScanName, number> = {
  'paper-clean-200': 0.005, // 0.00%
  'paper-200': 0.005, // 0.13%
  'letter-150': 0.012, // 0.45%
  'headings-300': 0.005, // 0.09%
  'chinese-200': 0.005, // 0.00%
};

// the OCR threads end before the file's process does (see closePpOcrModels)
afterAll(() => Promise.all([closePpOcrModels(), closeTesseractWorkers()]));

async function knownText(name: ScanName): Promise<string> {
  const { pages } = await convertPages(router, sourcePdfPath(name), { engine: 'text' });
  return pages[0]!.markdown;
}

describe('lite engine on scans', () => {
  for (const name of Object.keys(SCANS) as ScanName[]) {
    it(`reads ${name} with a character error rate under ${(MAX_CER[name] * 100).toFixed(1)}%`, async () => {
      const { pages, failures } = await convertPages(router, scanPath(name));
      expect(failures).toEqual([]);
      const page = pages[0]!;
      const cer = characterErrorRate(page.markdown, await knownText(name), { ignoreSpaces: name.startsWith('chinese') });
      console.log(`${name}: CER ${(cer * 100).toFixed(2)}% in ${Math.round(page.stats.timeMs)} ms (${page.stats.reason})\n${page.markdown}`);
      expect(page.stats.engine).toBe('lite');
      // Upright scans are read as they lie (turned ones: test/lite-orientation.test.ts).
      expect(page.stats.reason).not.toMatch(/scan lies/);
      expect(cer).toBeLessThan(MAX_CER[name]);
      // Read surely: no review flag (a page of guesses: test/lite-review.test.ts).
      expect(page.stats.flags).toBeUndefined();
      expect(page.stats.confidence).toBeGreaterThan(0.95);
      expect(page.blocks.length).toBeGreaterThan(0);
      for (const block of page.blocks) {
        const [x0, y0, x1, y1] = block.bbox;
        expect(x0 >= 0 && y0 >= 0 && x1 <= page.width && y1 <= page.height && x0 < x1 && y0 < y1, JSON.stringify(block)).toBe(true);
      }
    }, 300_000);
  }
});

describe('auto routes page by page without a model', () => {
  it('reads text pages from their text layer and the scanned page in between with OCR', async () => {
    const { pages, failures } = await convertPages(router, scanPath('mixed'));
    expect(failures).toEqual([]);
    expect(pages.map((p) => p.stats.engine)).toEqual(['text', 'lite', 'text']);
    expect(pages[1]!.stats.reason).toMatch(/no text layer/);
    expect(pages[1]!.markdown).toContain('Volunteer');
  }, 300_000);

  it('sends a scan under a wrong invisible OCR layer to OCR', async () => {
    const { pages } = await convertPages(router, scanPath('wrong-ocr-layer'));
    expect(pages[0]!.stats.engine).toBe('lite');
    expect(pages[0]!.stats.reason).toMatch(/invisible text layer of poor quality/);
    expect(characterErrorRate(pages[0]!.markdown, await knownText('letter-150'))).toBeLessThan(MAX_CER['letter-150']);
  }, 300_000);

  it('keeps a scanner\'s invisible OCR layer that reads well', async () => {
    const { pages } = await convertPages(router, scanPath('good-ocr-layer'));
    expect(pages[0]!.stats.engine).toBe('text');
    expect(pages[0]!.stats.reason).toMatch(/invisible text layer that reads well/);
  });

  it('reads an image file with OCR', async () => {
    const { pages } = await convertPages(router, SCAN_JPEG);
    expect(pages[0]!.stats.engine).toBe('lite');
    expect(pages[0]!.stats.reason).toMatch(/image page/);
    expect(pages[0]!.markdown).toContain('Harbour Master');
  }, 300_000);

  it("reads a scan's own pixels, and renders pages that are more than one image", async () => {
    const image = async (file: string, page: number) => {
      const { pdf } = await openPdf(file);
      try {
        return await scannedImage(await pdf.getPage(page), 3300);
      } finally {
        await pdf.destroy();
      }
    };
    // scans of A4 at 200 dpi keep their 1655 x 2341 pixels; the 300-dpi one (2482 x 3512) is halved
    expect(await image(scanPath('paper-clean-200'), 1)).toMatchObject({ width: 1655, height: 2341 });
    expect(await image(scanPath('headings-300'), 1)).toMatchObject({ width: 1241, height: 1756 });
    expect(await image(scanPath('wrong-ocr-layer'), 1)).toBeDefined();
    expect(await image(scanPath('mixed'), 1)).toBeUndefined();
    expect(await image(sourcePdfPath('paper-200'), 1)).toBeUndefined();
  });

  it('still reads a born-digital page from its text layer', async () => {
    const { pages } = await convertPages(router, sourcePdfPath('paper-200'));
    expect(pages[0]!.stats.engine).toBe('text');
  });
});
