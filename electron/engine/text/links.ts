/**
 * Link annotations -> the runs they cover. A link usually covers part of a pdf.js text item (one
 * word of a line), so runs are cut where a link's rectangle starts and ends, estimating character
 * positions from the run's width.
 */

import type { Box, TextRun } from '../layout/geometry.js';
import type { Matrix } from './affine.js';
import { transformBox } from './page-frame.js';

export interface LinkArea extends Box {
  url: string;
  /** The text under the link as pdf.js read it, when it did; places the cut exactly. */
  text?: string;
}

/** The parts of a pdf.js annotation that we read. */
export interface AnnotationLike {
  subtype?: unknown;
  url?: unknown;
  rect?: unknown;
  overlaidText?: unknown;
}

const SAFE_URL = /^(https?:\/\/|mailto:)/i;

/** Link areas in frame coordinates; only http(s) and mailto URLs are kept. */
export function readLinkAreas(annotations: readonly AnnotationLike[], fromUser: Matrix): LinkArea[] {
  const areas: LinkArea[] = [];
  for (const annotation of annotations) {
    if (annotation.subtype !== 'Link' || typeof annotation.url !== 'string') continue;
    const url = annotation.url.trim();
    if (!SAFE_URL.test(url)) continue;
    const rect = annotation.rect;
    if (!Array.isArray(rect) || rect.length !== 4 || !rect.every((v) => typeof v === 'number' && Number.isFinite(v))) continue;
    const [x0, y0, x1, y1] = rect as number[];
    const box = transformBox(fromUser, { x0: x0 ?? 0, y0: y0 ?? 0, x1: x1 ?? 0, y1: y1 ?? 0 });
    const text = typeof annotation.overlaidText === 'string' ? annotation.overlaidText.trim() : '';
    areas.push(text ? { ...box, url, text } : { ...box, url });
  }
  return areas;
}

function verticallyInside(run: TextRun, area: LinkArea): boolean {
  const centre = (run.y0 + run.y1) / 2;
  return centre >= area.y0 - 1 && centre <= area.y1 + 1;
}

/** Cuts runs at link boundaries and marks the covered pieces with their URL. */
export function applyLinks(runs: readonly TextRun[], areas: readonly LinkArea[]): TextRun[] {
  if (areas.length === 0) return [...runs];
  const result: TextRun[] = [];
  for (const run of runs) {
    const hits = areas.filter((a) => verticallyInside(run, a) && a.x1 > run.x0 && a.x0 < run.x1);
    if (hits.length === 0) {
      result.push(run);
      continue;
    }
    result.push(...cutRun(run, hits));
  }
  return result;
}

/** Which URL each character of the run falls under. */
function urlsByChar(run: TextRun, chars: readonly string[], areas: readonly LinkArea[]): (string | undefined)[] {
  const charWidth = (run.x1 - run.x0) / Math.max(1, chars.length);
  const urls: (string | undefined)[] = chars.map((_, i) => {
    const centre = run.x0 + (i + 0.5) * charWidth;
    return areas.find((a) => !a.text && centre >= a.x0 && centre <= a.x1)?.url;
  });
  // Widths vary by glyph, so where pdf.js knows the linked text, find it in the run nearest its rectangle.
  const text = chars.join('');
  for (const area of areas) {
    if (!area.text) continue;
    const guess = Math.round((area.x0 - run.x0) / charWidth);
    let best = -1;
    for (let at = text.indexOf(area.text); at !== -1; at = text.indexOf(area.text, at + 1)) {
      if (best === -1 || Math.abs(at - guess) < Math.abs(best - guess)) best = at;
    }
    const [from, to] =
      best === -1
        ? [Math.max(0, guess), Math.min(chars.length, Math.round((area.x1 - run.x0) / charWidth))]
        : [[...text.slice(0, best)].length, [...text.slice(0, best)].length + [...area.text].length];
    for (let i = from; i < to; i++) urls[i] = area.url;
  }
  return urls;
}

function cutRun(run: TextRun, areas: readonly LinkArea[]): TextRun[] {
  const chars = [...run.text];
  const charWidth = (run.x1 - run.x0) / Math.max(1, chars.length);
  const urlAt = urlsByChar(run, chars, areas);
  const pieces: TextRun[] = [];
  let start = 0;
  for (let i = 1; i <= chars.length; i++) {
    if (i < chars.length && urlAt[i] === urlAt[start]) continue;
    const text = chars.slice(start, i).join('');
    const url = urlAt[start];
    const piece: TextRun = { ...run, text, x0: run.x0 + start * charWidth, x1: run.x0 + i * charWidth };
    if (url) piece.link = url;
    else delete piece.link;
    pieces.push(piece);
    start = i;
  }
  return pieces;
}
