/**
 * Fine-tuning pairs from the workspace: which pages a person vouched for, which side of the
 * train/validation split each document falls on, and the JSONL lines and manifest a trainer reads.
 * Pure: rendering the page images and writing the folder happen at the edges.
 */

import { IMAGE_LINK_PREFIX } from '../page.js';
import { pageMarkdown, type WorkspaceDocument, type WorkspacePage } from '../workspace.js';

/** The chat format of a model's template: DeepSeek-OCR's plain prompt, or jina-ocr-v1's chat template. */
export const PAIR_FORMATS = ['deepseek-ocr', 'jina-ocr-v1'] as const;
export type PairFormat = (typeof PAIR_FORMATS)[number];

/** What each model is asked with, as its runtime asks it (shared/MODEL-NOTES.md). */
export const PAIR_PROMPTS: Readonly<Record<PairFormat, string>> = {
  'deepseek-ocr': '<image>\n<|grounding|>Convert the document to markdown.',
  'jina-ocr-v1': 'Transcribe the provided document image into a clean Markdown format, preserving the natural reading order.',
};

/** DeepSeek-OCR's and jina-ocr-v1's base view (Base mode, and Gundam's global view). */
export const DEFAULT_PAIR_IMAGE_SIZE = 1024;
export const DEFAULT_VALIDATION_SHARE = 0.1;
export const PAIRS_FORMAT = 'folio-training-pairs';
export const PAIRS_FORMAT_VERSION = 1;

export type PairSplit = 'train' | 'validation';

/**
 * A page counts as looked at when the person edited its text or marked it reviewed; its final text
 * (their edit, else the engine's) must have something in it. Pages never looked at are left out:
 * the engine's unchecked output would teach the model its own mistakes.
 */
export function vouchedPages(document: WorkspaceDocument): WorkspacePage[] {
  return document.pages.filter((page) => (page.reviewed || page.editedMarkdown !== undefined) && pairText(pageMarkdown(page)).trim() !== '');
}

/**
 * Which side a document falls on: by a hash of its id alone, so a document stays on its side when
 * others are added or removed and a later export never moves a validation page into training.
 */
export function splitOf(docId: string, validationShare: number): PairSplit {
  return unitHash(docId) < validationShare ? 'validation' : 'train';
}

/** FNV-1a over the id's UTF-16 code units, scaled to [0, 1). */
function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}

/**
 * The page's final Markdown as a training target. Figure links name files in Folio's workspace
 * (`folio-image:`), which the pairs folder does not hold and no model writes, so they are dropped.
 */
export function pairText(markdown: string): string {
  const figureLink = new RegExp(`!\\[[^\\]]*\\]\\(${IMAGE_LINK_PREFIX}[^)]*\\)\\n?`, 'g');
  return markdown.replace(figureLink, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** `images/<file stem>-<id>-p<page>.png`: readable, and unique by the document id. */
export function pairImagePath(document: WorkspaceDocument, page: number): string {
  const stem = document.name.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60) || 'page';
  const id = document.id.replace(/[^A-Za-z0-9]/g, '').slice(0, 8);
  return `images/${stem}-${id}-p${page}.png`;
}

/**
 * One JSONL line in the model's chat format, the image path relative to the folder:
 * DeepSeek-OCR's own conversation (`<|User|>` with `images`, as its inference code builds it), or
 * the chat-template messages jina-ocr-v1's processor renders (image first, then the instruction).
 */
export function chatLine(format: PairFormat, prompt: string, image: string, text: string): string {
  const messages =
    format === 'deepseek-ocr'
      ? [
          { role: '<|User|>', content: prompt, images: [image] },
          { role: '<|Assistant|>', content: text },
        ]
      : [
          {
            role: 'user',
            content: [
              { type: 'image', image },
              { type: 'text', text: prompt },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text }] },
        ];
  return JSON.stringify({ messages });
}

/** What the manifest says of one pair. */
export interface PairRecord {
  image: string;
  split: PairSplit;
  document: { id: string; name: string; path: string };
  page: number;
  /** The engine that produced the text the person started from; null when the page was never converted (typed by hand). */
  engine: string | null;
  /** The model that read the page (vlm: the package, remote: the served model); null for engines without one. */
  model: string | null;
  /** Whether the text is the person's edit rather than the engine's output as it came. */
  edited: boolean;
  reviewed: boolean;
  width: number;
  height: number;
}

export function pairRecord(document: WorkspaceDocument, page: WorkspacePage, split: PairSplit, size: { width: number; height: number }): PairRecord {
  const stats = page.result?.stats;
  return {
    image: pairImagePath(document, page.page),
    split,
    document: { id: document.id, name: document.name, path: document.path },
    page: page.page,
    engine: stats?.engine ?? null,
    model: stats?.model ?? stats?.decode?.model ?? null,
    edited: page.editedMarkdown !== undefined,
    reviewed: page.reviewed,
    width: size.width,
    height: size.height,
  };
}

export interface PairsManifest {
  format: typeof PAIRS_FORMAT;
  version: typeof PAIRS_FORMAT_VERSION;
  chatFormat: PairFormat;
  prompt: string;
  /** The longer side of every image, in pixels. */
  imageSize: number;
  validationShare: number;
  files: { train: 'train.jsonl'; validation: 'validation.jsonl' };
  counts: { train: number; validation: number };
  pairs: PairRecord[];
}

export function pairsManifest(format: PairFormat, prompt: string, imageSize: number, validationShare: number, pairs: PairRecord[]): PairsManifest {
  return {
    format: PAIRS_FORMAT,
    version: PAIRS_FORMAT_VERSION,
    chatFormat: format,
    prompt,
    imageSize,
    validationShare,
    files: { train: 'train.jsonl', validation: 'validation.jsonl' },
    counts: { train: pairs.filter((pair) => pair.split === 'train').length, validation: pairs.filter((pair) => pair.split === 'validation').length },
    pairs,
  };
}
