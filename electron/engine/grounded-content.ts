/**
 * What a grounded page adds to its Markdown: blocks with page coordinates, and the figures it links,
 * cut from the page's pixels as PNG when the job extracts images. A block's Markdown is the model's,
 * made safe as the page's is (shared/model-markdown.ts).
 */

import { groundedBlocks, groundedImages, type GroundedRegion } from '../../shared/grounding.js';
import { safeModelMarkdown } from '../../shared/model-markdown.js';
import type { BBox, Block, PageImage } from '../../shared/page.js';
import type { RgbImage } from './raster/rgb-image.js';
import { crop } from './raster/rgb-image.js';
import { encodePageImage } from './remote/page-image.js';

export interface GroundedContent {
  blocks: Block[];
  images: PageImage[];
}

/** `raster` is asked for only when a figure is to be cut: any rendering of the page, upright, at the page's aspect. */
export async function groundedContent(
  regions: readonly GroundedRegion[],
  page: { width: number; height: number },
  extractImages: boolean,
  raster: () => Promise<RgbImage>,
): Promise<GroundedContent> {
  const blocks = groundedBlocks(regions, page).map((block) => ({ ...block, markdown: safeModelMarkdown(block.markdown) }));
  const images = groundedImages(regions, page);
  if (!extractImages || images.length === 0) return { blocks, images };
  const pixels = await raster();
  for (const image of images) image.data = await encodePageImage(cropToBox(pixels, image.bbox, page), 'png');
  return { blocks, images };
}

/** The pixels under a box given in page points, at least one pixel each way. */
export function cropToBox(pixels: RgbImage, bbox: BBox, page: { width: number; height: number }): RgbImage {
  const sx = pixels.width / page.width;
  const sy = pixels.height / page.height;
  const x0 = Math.min(Math.max(Math.floor(bbox[0] * sx), 0), pixels.width - 1);
  const y0 = Math.min(Math.max(Math.floor(bbox[1] * sy), 0), pixels.height - 1);
  const x1 = Math.min(Math.max(Math.ceil(bbox[2] * sx), x0 + 1), pixels.width);
  const y1 = Math.min(Math.max(Math.ceil(bbox[3] * sy), y0 + 1), pixels.height);
  return crop(pixels, x0, y0, x1 - x0, y1 - y0);
}
