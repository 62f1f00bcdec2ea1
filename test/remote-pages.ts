/**
 * PDFs for the remote engine's tests: page k is (300 + 40k) points wide, so a test server that only
 * sees the page image can tell which page it was sent by the image's width.
 */

import { writeFile } from 'node:fs/promises';

export const PAGE_HEIGHT = 800;

export function pageWidth(page: number): number {
  return 300 + 40 * page;
}

/** The pixel width of page `page` rendered with its longer side (the height) `longSide` pixels. */
export function renderedWidth(page: number, longSide: number): number {
  return Math.round((pageWidth(page) * longSide) / PAGE_HEIGHT);
}

/**
 * Writes a PDF of `pages` pages, each with a black bar and a line of text (so none is blank); its
 * pages are coded as pages `firstCode`, `firstCode + 1`... so several files can be told apart.
 */
export async function writeWidthCodedPdf(file: string, pages: number, firstCode = 1): Promise<void> {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>', '', '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'];
  const kids: string[] = [];
  for (let page = firstCode; page < firstCode + pages; page++) {
    const content = `0 0 0 rg 40 600 ${pageWidth(page) - 80} 60 re f BT /F1 24 Tf 40 500 Td (Page ${page}) Tj ET`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const contentId = objects.length;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${pageWidth(page)} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`);
    kids.push(`${objects.length} 0 R`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  await writeFile(file, pdf, 'latin1');
}
