/** A page image to the decoder's prompt: views, vision features, the laid-out visual run, the prompt ids and their embeddings. */

import type { Tokenizer } from '@huggingface/tokenizers';
import type { Manifest, ResolutionMode } from '../../core/model/manifest.js';
import type { EncodedViews, ModelRunner } from './model-runner.js';
import { promptIds } from './prompt.js';
import type { RgbImage } from '../raster/rgb-image.js';
import { prepareViews } from './views.js';
import { layVisualSequence } from './visual-layout.js';

export interface PageInput {
  ids: number[];
  /** `[ids.length, hidden]`: token embeddings with the visual features in the `<image>` run. */
  embeds: Float32Array;
  visualTokens: number;
  grid: readonly [number, number];
  /** The page's turn on the vision encoder (model-runner.ts `encode`). */
  vision: Omit<EncodedViews, 'features'>;
}

export function resolutionMode(manifest: Manifest, name: string): ResolutionMode {
  const mode = manifest.vision.resolution_modes.find((candidate) => candidate.name === name);
  if (!mode) {
    const known = manifest.vision.resolution_modes.map((candidate) => candidate.name).join(', ');
    throw new Error(`the model package has no resolution mode "${name}"; it offers ${known}`);
  }
  return mode;
}

/** `turn`: told when the page's turn on the vision encoder comes (after other pages' vision). */
export async function pageInput(runner: ModelRunner, manifest: Manifest, tokenizer: Tokenizer, image: RgbImage, mode: ResolutionMode, turn?: () => void): Promise<PageInput> {
  const views = prepareViews(image, mode, manifest.vision);
  const { features, ...vision } = await runner.encode(views, turn);
  const visual = layVisualSequence(features);
  const visualTokens = visual.length / runner.hidden;
  const ids = promptIds(manifest, tokenizer, visualTokens);
  const embeds = await runner.embed(ids);
  const imageId = manifest.tokens.special['<image>'];
  const first = ids.indexOf(imageId ?? -1);
  embeds.set(visual, first * runner.hidden);
  return { ids, embeds, visualTokens, grid: views.grid, vision };
}
