import { writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * A PDF of `pageCount` letter pages of prose; on the pages in `loose`, a formula typeset the way a
 * word processor without an equation editor leaves it: italic letters and operators as plain text,
 * which the text layer reads as loose glyphs rather than a formula.
 */
export async function writeReviewPdf(file: string, pageCount: number, loose: readonly number[]): Promise<void> {
  const pdf = await PDFDocument.create();
  const roman = await pdf.embedFont(StandardFonts.TimesRoman);
  const italic = await pdf.embedFont(StandardFonts.TimesRomanItalic);
  const bold = await pdf.embedFont(StandardFonts.TimesRomanBold);
  for (let number = 1; number <= pageCount; number++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${number}`, { x: 72, y: 700, size: 18, font: bold });
    const prose = [
      `This is page ${number}. The survey measured the water level at each station every morning,`,
      'and the readings were compared with the tide tables printed for the same harbour.',
    ];
    prose.forEach((line, index) => page.drawText(line, { x: 72, y: 660 - index * 16, size: 11, font: roman }));
    const which = loose.indexOf(number);
    if (which >= 0) {
      // each page its own letters and place: the same line on several pages would be running text, dropped
      const [sum, left, right] = VARIABLES[which % VARIABLES.length]!;
      runs(page, 72, 610 - 24 * which, [
        [`${SENTENCES[which % SENTENCES.length]} `, roman],
        [sum, italic],
        [' = ', roman],
        [left, italic],
        [' + ', roman],
        [right, italic],
        ['.', roman],
      ]);
    }
  }
  await writeFile(file, await pdf.save());
}

const VARIABLES = [
  ['x', 'y', 'z'],
  ['a', 'b', 'c'],
  ['u', 'v', 'w'],
] as const;
const SENTENCES = ['The total for every station is', 'Each reading then gives', 'The tide tables agree where'];

function runs(page: PDFPage, x: number, y: number, parts: readonly (readonly [string, PDFFont])[]): void {
  let at = x;
  for (const [text, font] of parts) {
    page.drawText(text, { x: at, y, size: 11, font });
    at += font.widthOfTextAtSize(text, 11);
  }
}
