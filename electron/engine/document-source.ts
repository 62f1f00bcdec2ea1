/**
 * What a document is to the engines: a PDF, or an image file whose pages are its images. Both can
 * render each page to pixels; only a PDF has a text layer. Apart from the opener so that the
 * image document can implement it without importing the opener that imports it.
 */

import type { PdfDocument } from './pdf/pdf-document.js';
import type { DocumentInfo } from '../../shared/protocol.js';
import type { RgbImage } from './raster/rgb-image.js';

export interface DocumentSource {
  readonly info: DocumentInfo;
  /** Absent when the document is an image file. */
  readonly pdf?: PdfDocument;
  /** The page on white, its longer side `longSide` pixels. */
  render(page: number, longSide: number): Promise<RgbImage>;
  /** An image file's page as stored (upright), for engines that resample it themselves. */
  storedImage?(page: number): Promise<RgbImage>;
  /** Why pdf.js could not parse the page's content, where it gave up on it silently; undefined when it read it all. */
  contentError?(page: number): Promise<string | undefined>;
  close(): Promise<void>;
}
