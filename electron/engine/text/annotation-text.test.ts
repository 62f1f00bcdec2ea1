/**
 * Text drawn by annotations rather than by the page (form fields' values, push-button captions,
 * text boxes): the text engine reads it in place with the page's own text, as pdftotext does, and
 * leaves out what the page does not show.
 */

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assemblePdf, pdfStream } from '../../../test/hand-built-pdf.js';
import { textEngineMarkdown } from '../../../test/text-engine-markdown.js';
import { loadPdfium, openPdfiumDocument } from '../pdf/pdfium-text.js';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-annotation-text-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface Annotation {
  /** The annotation's dictionary entries but its appearance. */
  entries: string;
  rect: [number, number, number, number];
  /** What its normal appearance draws, in Helvetica 12 at 2 5 inside its rectangle; none without. */
  shows?: string;
}

/** A Letter page drawing `body` (Helvetica 12 lines 60 points apart from 72, 700 down) with `annotations` on it. */
async function pdfWith(name: string, body: readonly string[], annotations: readonly Annotation[]): Promise<string> {
  // 1 catalog, 2 pages, 3 page, 4 contents, 5 font, then each annotation and its appearance
  const refs = annotations.map((_, i) => `${6 + 2 * i} 0 R`);
  const widgets = refs.filter((_, i) => annotations[i]!.entries.includes('/Widget'));
  const contents = body.map((line, i) => `BT /F1 12 Tf 72 ${700 - 60 * i} Td (${line}) Tj ET`).join('\n');
  const objects: (string | Buffer)[] = [
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${widgets.join(' ')}] >> >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [${refs.join(' ')}] >>`,
    pdfStream(Buffer.from(contents)),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  annotations.forEach((annotation, i) => {
    const [x0, y0, x1, y1] = annotation.rect;
    const appearance = annotation.shows === undefined ? '' : ` /AP << /N ${7 + 2 * i} 0 R >>`;
    objects.push(`<< /Type /Annot ${annotation.entries} /Rect [${x0} ${y0} ${x1} ${y1}] /P 3 0 R${appearance} >>`);
    objects.push(
      pdfStream(
        Buffer.from(`BT /F1 12 Tf 2 5 Td (${annotation.shows ?? ''}) Tj ET`),
        ` /Type /XObject /Subtype /Form /BBox [0 0 ${x1 - x0} ${y1 - y0}] /Resources << /Font << /F1 5 0 R >> >>`,
      ),
    );
  });
  const file = path.join(folder, `${name}.pdf`);
  await writeFile(file, assemblePdf(objects, '/Root 1 0 R'));
  return file;
}

const field = (name: string, value: string, rect: Annotation['rect'], flags = 4): Annotation => ({
  entries: `/Subtype /Widget /FT /Tx /T (${name}) /V (${value}) /F ${flags}`,
  rect,
  shows: value,
});

describe('text drawn by annotations', () => {
  it("reads a form's field values and a text box in place among the page's lines", async () => {
    const file = await pdfWith('form', ['Delivery note', 'Signed on receipt.'], [
      field('street', 'Harbour Lane 12', [72, 665, 300, 685]),
      { entries: '/Subtype /FreeText /Contents (Checked by J. Moss) /DA (/Helv 12 Tf 0 g) /F 4', rect: [72, 610, 300, 630], shows: 'Checked by J. Moss' },
    ]);
    const markdown = await textEngineMarkdown(file);
    const order = ['Delivery note', 'Harbour Lane 12', 'Signed on receipt.', 'Checked by J. Moss'].map((text) => markdown.indexOf(text));
    expect(order.every((at) => at >= 0), markdown).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('writes a page whose only text is a text box', async () => {
    const file = await pdfWith('only-text-box', [], [
      { entries: '/Subtype /FreeText /Contents (Bluebeam should be encrypting this.) /DA (/Helv 12 Tf 0 g) /F 4', rect: [36, 720, 400, 740], shows: 'Bluebeam should be encrypting this.' },
    ]);
    expect(await textEngineMarkdown(file)).toBe('Bluebeam should be encrypting this.');
  });

  it('leaves out a hidden field', async () => {
    const file = await pdfWith('hidden', ['Visible line'], [field('secret', 'Hidden value', [72, 600, 300, 620], 2)]);
    expect(await textEngineMarkdown(file)).toBe('Visible line');
  });

  it('keeps the links of a page that has form fields', async () => {
    const file = await pdfWith('link-and-field', ['Read the harbour rules first.'], [
      { entries: '/Subtype /Link /A << /S /URI /URI (https://example.org/rules) >> /Border [0 0 0]', rect: [72, 695, 300, 714], shows: '' },
      field('name', 'Ada Byron', [72, 600, 300, 620]),
    ]);
    const markdown = await textEngineMarkdown(file);
    expect(markdown).toContain('](https://example.org/rules)');
    expect(markdown).toContain('Ada Byron');
  });

  it('draws the text of annotations that have no appearance from their values: a text box, a text field, a chosen option', async () => {
    const file = await pdfWith('no-appearances', ['Mooring request'], [
      { entries: '/Subtype /FreeText /Contents (Berth 7 please) /DA (/Helv 10 Tf 0 g) /F 4', rect: [72, 640, 300, 660] },
      { entries: '/Subtype /Widget /FT /Tx /T (boat) /V (Kittiwake) /DA (/Helv 0 Tf 0 g) /F 4', rect: [72, 600, 300, 620] },
      { entries: '/Subtype /Widget /FT /Ch /Ff 131072 /T (stay) /Opt [[(w1) (One week)] [(w2) (Two weeks)]] /V (w2) /DA (/Helv 10 Tf 0 g) /F 4', rect: [72, 560, 300, 580] },
    ]);
    expect((await textEngineMarkdown(file)).split('\n\n')).toEqual(['Mooring request', 'Berth 7 please', 'Kittiwake', 'Two weeks']);
  });

  it('needs no reader for text fields without an appearance that hold no value, and still draws those whose value their parent field holds', async () => {
    const file = await pdfWith('blank-fields', ['Crew list'], [
      { entries: '/Subtype /Widget /FT /Tx /T (empty) /V () /DA (/Helv 12 Tf 0 g) /F 4', rect: [72, 640, 300, 660] },
      { entries: '/Subtype /Widget /FT /Tx /T (spaces) /V (   ) /DA (/Helv 12 Tf 0 g) /F 4', rect: [72, 600, 300, 620] },
      { entries: '/Subtype /Widget /FT /Tx /T (unset) /DA (/Helv 12 Tf 0 g) /F 4', rect: [72, 560, 300, 580] },
      { entries: '/Subtype /Widget /Parent << /FT /Tx /T (skipper) /V (Grace Darling) >> /DA (/Helv 12 Tf 0 g) /F 4', rect: [72, 520, 300, 540] },
    ]);
    expect((await textEngineMarkdown(file)).split('\n\n')).toEqual(['Crew list', 'Grace Darling']);
    const document = openPdfiumDocument(await loadPdfium(), new Uint8Array(await readFile(file)));
    try {
      // only the field with a value is left for pdf.js's annotation data to draw
      expect(document.readText(1).unpaintedAnnotations).toEqual([[72, 520, 300, 540]]);
    } finally {
      document.close();
    }
  });
});
