/**
 * What an OCR page's running headers and footers are compared with: the band lines of the pages
 * around it, by the text engine's rule (text/running-lines.ts). A neighbour with a real text layer
 * gives its text's band lines (cheap); a scanned one gives what OCR read there, remembered per
 * document (text/document-band-lines.ts). The next page, when nothing has read it yet and the
 * conversion will reach it, is read ahead and its reading kept for its own turn, so a document
 * converted in order is still read once; earlier pages count once read, which in order they are.
 */

import type { PdfDocument } from '../pdf/pdf-document.js';
import { decidePageRoute } from '../page-route.js';
import { probeTextLayer } from '../text-layer-probe.js';
import type { DocumentBandLines } from '../layout/document-band-lines.js';
import { NEIGHBOUR_PAGES } from '../layout/running-lines.js';
import type { BandLine } from '../layout/running-text.js';
import { readTextSummary } from '../text/text-engine.js';

/** A page read ahead: the reading kept for its turn, and its band lines. */
export interface ReadAhead<R> {
  read: R;
  bandLines: BandLine[];
}

/** Readings kept for their turn: the next page's, and one a reader left behind. */
const MAX_READ_AHEAD = 2;

export class OcrNeighbours<R> {
  private readonly readAhead = new Map<number, { reader: string; read: R }>();

  /** `bandLines`: shared with the text engine, which compares its pages with what OCR read here. */
  constructor(
    private readonly pdf: PdfDocument,
    private readonly bandLines: DocumentBandLines,
  ) {}

  /** The page's reading when it was read ahead by the same reader (`reader` names it and its language). */
  take(page: number, reader: string): R | undefined {
    const kept = this.readAhead.get(page);
    this.readAhead.delete(page);
    return kept?.reader === reader ? kept.read : undefined;
  }

  remember(page: number, bandLines: BandLine[]): void {
    this.bandLines.set(this.pdf, page, bandLines);
  }

  /**
   * The band lines of the pages around `page`, and the next page's number when it had to be read
   * ahead (with `read`; without it, a scan not yet read gives no evidence) to get them.
   */
  async around(page: number, reader: string, read: ((page: number) => Promise<ReadAhead<R>>) | undefined, signal: AbortSignal): Promise<{ bands: BandLine[][]; readAhead?: number }> {
    const bands: BandLine[][] = [];
    let readAhead: number | undefined;
    for (let offset = -NEIGHBOUR_PAGES; offset <= NEIGHBOUR_PAGES; offset++) {
      const other = page + offset;
      if (offset === 0 || other < 1 || other > this.pdf.numPages) continue;
      signal.throwIfAborted();
      try {
        const known = this.bandLines.get(this.pdf, other) ?? (await this.textBandLines(other));
        if (known) {
          bands.push(known);
        } else if (offset === 1 && read) {
          const ahead = await read(other);
          this.readAhead.set(other, { reader, read: ahead.read });
          if (this.readAhead.size > MAX_READ_AHEAD) this.readAhead.delete(this.readAhead.keys().next().value!);
          this.remember(other, ahead.bandLines);
          bands.push(ahead.bandLines);
          readAhead = other;
        }
      } catch (error) {
        // A neighbour that cannot be read just gives no evidence about running text.
        if (signal.aborted) throw error;
      }
    }
    return { bands, readAhead };
  }

  /** A neighbour's band lines from its text layer, when `auto` would read that layer rather than OCR it. */
  private async textBandLines(page: number): Promise<BandLine[] | undefined> {
    const read = await readTextSummary(this.pdf, page);
    // A scan with no text at all is known without the probe, which decodes the page's image (0.3-0.5 s).
    if (!read || [...read.summary.charsBySize.values()].every((chars) => chars === 0)) return undefined;
    if (decidePageRoute(await probeTextLayer(await this.pdf.getPage(page))).engine !== 'text') return undefined;
    this.remember(page, read.summary.bandLines);
    return read.summary.bandLines;
  }
}
