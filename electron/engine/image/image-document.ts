/** An image file opened as a document: one page per image (a multi-page TIFF has several), one pixel per point. */

import type { DocumentInfo } from '../../../shared/protocol.js';
import type { DocumentSource } from '../document-source.js';
import { MAX_DOCUMENT_BYTES, readBoundedFile, UnfitFileError } from '../../core/bounded-file.js';
import { FailureError } from '../../core/failure-error.js';
import { resizeLarge } from '../raster/box-reduce.js';
import type { RgbImage } from '../raster/rgb-image.js';
import type { ImageFormat } from './image-format.js';
import { ImageTooLargeError, readImagePages, type ReadableFormat } from './image-pages.js';

export async function openImageDocument(file: string, format: ImageFormat): Promise<DocumentSource> {
  if (!isReadable(format)) {
    throw new FailureError('not-pdf', `${file}: a ${format.toUpperCase()} image, which Folio does not read; save it as PNG, JPEG or TIFF.`);
  }
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(file, MAX_DOCUMENT_BYTES, 'document');
  } catch (error) {
    throw error instanceof UnfitFileError ? new FailureError('not-pdf', error.message) : error;
  }
  let pages;
  try {
    pages = await readImagePages(bytes, format);
  } catch (error) {
    throw describeDecodeError(error, file, format.toUpperCase());
  }
  if (pages.count === 0) throw new FailureError('damaged', `${file}: the ${format.toUpperCase()} file holds no image.`);
  const info: DocumentInfo = { pageCount: pages.count };
  const decode = async (page: number): Promise<RgbImage> => {
    if (page < 1 || page > pages.count) throw new FailureError('internal', `${file}: has ${pages.count} pages, not ${page}.`);
    try {
      return await pages.decode(page - 1);
    } catch (error) {
      throw describeDecodeError(error, `${file}: page ${page}`, format.toUpperCase());
    }
  };
  return {
    info,
    storedImage: decode,
    render: async (page, longSide) => {
      const image = await decode(page);
      const scale = longSide / Math.max(image.width, image.height);
      if (scale === 1) return image;
      return resizeLarge(image, Math.max(1, Math.round(image.width * scale)), Math.max(1, Math.round(image.height * scale)));
    },
    close: async () => undefined,
  };
}

function isReadable(format: ImageFormat): format is ReadableFormat {
  return format === 'png' || format === 'jpeg' || format === 'tiff';
}

function describeDecodeError(error: unknown, where: string, format: string): FailureError {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof ImageTooLargeError) return new FailureError('damaged', `${where}: too large to read as a page (${detail}); scale it down first.`);
  return new FailureError('damaged', `${where}: damaged ${format} image that cannot be decoded (${detail}).`);
}
