/**
 * The JSON export: the document page by page with its blocks, for people who index or post-process
 * Folio's output. Objects are built field by field so the key order is fixed and nothing an engine
 * attached (image bytes above all) leaks into the file.
 */

import type { PageFailure } from '../failure.js';
import type { BBox, Block, DecodeStats, PageResult, PageStats } from '../page.js';
import type { DocumentInfo } from '../protocol.js';

/** Bumped when a field changes meaning or goes away; adding a field keeps the version. */
export const DOCUMENT_JSON_VERSION = 1;

export function documentJson(
  doc: { file: string; info: DocumentInfo },
  pages: readonly PageResult[],
  failures: readonly PageFailure[],
): string {
  const json = {
    format: 'folio-document',
    version: DOCUMENT_JSON_VERSION,
    file: baseName(doc.file),
    info: { pageCount: doc.info.pageCount, title: doc.info.title, author: doc.info.author },
    pages: [...pages].sort((a, b) => a.page - b.page).map(pageJson),
    failures: [...failures]
      .sort((a, b) => a.page - b.page)
      .map(({ page, failure }) => ({ page, failure: { code: failure.code, message: failure.message } })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

function pageJson(page: PageResult) {
  return {
    page: page.page,
    width: points(page.width),
    height: points(page.height),
    markdown: page.markdown,
    blocks: page.blocks.map(blockJson),
    images: page.images.map((image) => image.name),
    stats: statsJson(page.stats),
  };
}

function blockJson(block: Block) {
  return { kind: block.kind, bbox: bboxJson(block.bbox), markdown: block.markdown, level: block.level };
}

function statsJson(stats: PageStats) {
  return {
    engine: stats.engine,
    device: stats.device,
    reason: stats.reason,
    timeMs: Math.round(stats.timeMs),
    chars: stats.chars,
    tokens: stats.tokens,
    steps: stats.steps,
    tokensPerStep: stats.tokensPerStep,
    decode: stats.decode && decodeJson(stats.decode),
    confidence: stats.confidence,
    flags: stats.flags,
  };
}

function decodeJson(decode: DecodeStats) {
  return {
    model: decode.model,
    mode: decode.mode,
    visualTokens: decode.visualTokens,
    promptTokens: decode.promptTokens,
    newTokens: decode.newTokens,
    steps: decode.steps,
    tokensPerStep: decode.tokensPerStep,
    specKSetting: decode.specKSetting,
    specK: decode.specK,
    stepsAtK: decode.stepsAtK,
    acceptance: decode.acceptance,
    visionMs: Math.round(decode.visionMs),
    visionOnThread: decode.visionOnThread,
    visionWaitMs: Math.round(decode.visionWaitMs),
    visionOverlapMs: Math.round(decode.visionOverlapMs),
    laneWaitMs: Math.round(decode.laneWaitMs),
    prefillMs: Math.round(decode.prefillMs),
    decodeMs: Math.round(decode.decodeMs),
    tokensPerSecond: Math.round(decode.tokensPerSecond * 10) / 10,
    cacheBytes: decode.cacheBytes,
    provider: decode.provider,
    precision: decode.precision,
    cacheResident: decode.cacheResident,
    hostBytesPerStep: Math.round(decode.hostBytesPerStep),
    pagesTogether: { most: decode.pagesTogether.most, mean: Math.round(decode.pagesTogether.mean * 100) / 100 },
    rowsPerPass: Math.round(decode.rowsPerPass * 10) / 10,
    skippedIds: decode.skippedIds,
    stopped: decode.stopped,
  };
}

function bboxJson(bbox: BBox): number[] {
  return bbox.map(points);
}

/** Hundredths of a point are finer than any glyph and keep float noise out of diffs. */
function points(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The path is the user's; only the file's name belongs in a file they may share. */
function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
