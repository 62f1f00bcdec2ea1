import { writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF of `pageCount` letter pages, each with a heading and a paragraph naming its page. */
export async function writeLongPdf(file: string, pageCount: number): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let number = 1; number <= pageCount; number++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Chapter ${number}`, { x: 72, y: 700, size: 20, font: bold });
    const lines = [
      `This is page ${number} of a long document, made to test that the window stays light`,
      'when a document has thousands of pages: only the pages in view are drawn.',
    ];
    lines.forEach((line, index) => page.drawText(line, { x: 72, y: 660 - index * 16, size: 11, font }));
  }
  await writeFile(file, await pdf.save());
}
