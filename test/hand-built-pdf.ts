/**
 * PDFs written object by object, for files Chromium cannot print: encrypted ones (encrypted-pdf.ts),
 * broken ones, and small ones a test needs without starting a browser.
 */

export function pdfStream(data: Buffer, dictionary = ''): Buffer {
  return Buffer.concat([Buffer.from(`<< /Length ${data.length}${dictionary} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
}

/** Objects numbered from 1 in the order given, with a correct cross-reference table. */
export function assemblePdf(objects: readonly (string | Buffer)[], trailer: string): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), Buffer.from(body as string | Uint8Array), Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(part);
    length += part.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `)];
  parts.push(Buffer.from(`${xref.join('\n')}\ntrailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${length}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(parts);
}

/** One Letter page per content stream, Helvetica as /F1, e.g. `BT /F1 24 Tf 72 700 Td (Words) Tj ET`. */
export function plainPdf(contents: readonly (string | Buffer)[], trailer = ''): Buffer {
  const pageCount = contents.length;
  // 1 catalog, 2 pages, 3 font, then a page and its contents for each page
  const kids = contents.map((_, index) => `${4 + index * 2} 0 R`).join(' ');
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  contents.forEach((content, index) => {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + index * 2} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.push(pdfStream(Buffer.from(content as string | Uint8Array)));
  });
  return assemblePdf(objects, `/Root 1 0 R${trailer ? ` ${trailer}` : ''}`);
}
