/**
 * `auto` without a model: which engine reads a page, and why, from its text layer's facts. Pure, so
 * the thresholds are tested on their own.
 */

import type { TextLayerFacts } from './text-layer-probe.js';

export interface PageRouteDecision {
  engine: 'text' | 'lite';
  reason: string;
}

/** Fewer characters than this is no text layer (a stray page number on a scan). */
const MIN_CHARS = 8;
const MAX_UNMAPPED = 0.5;
/** Most of the layer drawn invisible: a scanner's OCR over the page image. */
const INVISIBLE = 0.5;
/** An invisible layer reading worse than this is redone. */
const MIN_PLAUSIBLE = 0.8;

/** Images covering this much of a page hold what it says when its text layer is short. */
const IMAGE_PAGE = 0.4;
/** A text layer this short (characters) does not explain a page of images. */
const CAPTION_CHARS = 200;
/** This many painted paths with almost no text: the text is drawn as vector art. */
const VECTOR_TEXT_PATHS = 300;
/** A page drawing fewer paths than this, no image, no annotation and no text is blank. */
const BLANK_PATHS = 4;

export function decidePageRoute(facts: TextLayerFacts | undefined): PageRouteDecision {
  if (!facts) return { engine: 'lite', reason: 'image page with no text layer; no model configured, so OCR (lite)' };
  if (facts.chars === 0 && facts.imageShare === 0 && facts.annotations === 0 && facts.pathPaints < BLANK_PATHS) {
    return { engine: 'text', reason: `blank page (no text, image or annotation, ${facts.pathPaints} paths); nothing to read` };
  }
  if (facts.chars < MIN_CHARS) return { engine: 'lite', reason: `no text layer (${facts.chars} characters); OCR (lite)` };
  if (facts.invisibleShare <= INVISIBLE && facts.imageShare >= IMAGE_PAGE && facts.chars < CAPTION_CHARS) {
    return { engine: 'lite', reason: `images cover ${percent(facts.imageShare)} of the page and its text layer has only ${facts.chars} characters; OCR (lite)` };
  }
  if (facts.invisibleShare <= INVISIBLE && facts.pathPaints >= VECTOR_TEXT_PATHS && facts.chars < MIN_CHARS * 4) {
    return { engine: 'lite', reason: `${facts.pathPaints} painted paths and only ${facts.chars} characters of text: text drawn as graphics; OCR (lite)` };
  }
  if (facts.unmappedShare > MAX_UNMAPPED) {
    return { engine: 'lite', reason: `text layer is mostly unmapped glyphs (${percent(facts.unmappedShare)}); OCR (lite)` };
  }
  if (facts.invisibleShare > INVISIBLE && facts.plausibleShare < MIN_PLAUSIBLE) {
    return { engine: 'lite', reason: `invisible text layer of poor quality (${percent(facts.plausibleShare)} of words plausible); OCR (lite)` };
  }
  if (facts.invisibleShare > INVISIBLE) {
    return { engine: 'text', reason: `invisible text layer that reads well (${percent(facts.plausibleShare)} of words plausible); reading it` };
  }
  return { engine: 'text', reason: 'no model package configured; reading the text layer' };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
