/**
 * Writes the fine-tuning pairs folder: for every page a person edited or marked reviewed, the page
 * image at the model's input size and the final Markdown, as `train.jsonl` / `validation.jsonl`
 * (one chat per line, image paths relative to the folder) with `images/` and `manifest.json`.
 * Everything is written to a hidden staging folder inside the target first and moved into place
 * only when all of it is down, so a failed or cancelled export leaves the folder as it was.
 * Electron-free: the app and `folio export-pairs` both call it.
 */

import { access, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TrainingPairsOutcome } from '../../shared/app-api.js';
import {
  chatLine,
  DEFAULT_PAIR_IMAGE_SIZE,
  PAIR_PROMPTS,
  pairImagePath,
  pairRecord,
  pairsManifest,
  pairText,
  splitOf,
  vouchedPages,
  type PairFormat,
  type PairRecord,
} from '../../shared/export/training-pairs.js';
import { pageMarkdown, type WorkspaceDocument } from '../../shared/workspace.js';
import { readBoundedFile } from './bounded-file.js';
import { toFailure } from './failure-error.js';
import { manifestSchema, type Manifest } from './model/manifest.js';
import type { HostClient, OpenedDocument, RenderedPage } from './engine-client/host-client.js';
import { writeDurably, type WriteDurably } from './output/all-or-nothing-write.js';

export interface TrainingPairsOptions {
  folder: string;
  format: PairFormat;
  /** The instruction in each user turn: PAIR_PROMPTS[format], or the model package's own plain prompt. */
  prompt: string;
  /** The longer side of each page image, in pixels. */
  imageSize: number;
  /** The share of documents (by id hash) whose pages go to validation. */
  validationShare: number;
  overwrite: boolean;
  signal?: AbortSignal;
  /** Tests pass a writer that fails as a full disk does. */
  write?: WriteDurably;
}

/** Renders a document's page on white, its longer side `longSide` pixels, as PNG. */
export interface PageRenderer {
  render(document: WorkspaceDocument, page: number, longSide: number, signal?: AbortSignal): Promise<RenderedPage>;
}

const FIXED_FILES = ['train.jsonl', 'validation.jsonl', 'manifest.json'] as const;

export async function exportTrainingPairs(
  documents: readonly WorkspaceDocument[],
  options: TrainingPairsOptions,
  renderer: PageRenderer,
): Promise<TrainingPairsOutcome> {
  const wanted = distinctImages(documents.flatMap((document) => vouchedPages(document).map((page) => ({ document, page, image: pairImagePath(document, page.page) }))));
  if (wanted.length === 0) {
    return {
      kind: 'failed',
      message: 'No page has been reviewed or edited yet, so there are no pairs to write. Check pages (edit them, or tick "Reviewed") and export again.',
    };
  }
  const folder = path.resolve(options.folder);
  if (!options.overwrite) {
    const planned = [...FIXED_FILES, ...wanted.map(({ image }) => image)];
    const existing = await existingFiles(planned.map((name) => path.join(folder, ...name.split('/'))));
    if (existing.length > 0) return { kind: 'would-overwrite', files: existing };
  }
  const write = options.write ?? writeDurably;
  let stage: string;
  try {
    await mkdir(folder, { recursive: true });
    stage = await mkdtemp(path.join(folder, '.folio-pairs-'));
  } catch (error) {
    return { kind: 'failed', message: `cannot write in ${folder} (${errorCode(error)}); choose another folder.` };
  }
  try {
    const records: PairRecord[] = [];
    const lines = { train: [] as string[], validation: [] as string[] };
    const warnings: string[] = [];
    await mkdir(path.join(stage, 'images'));
    for (const { document, page, image } of wanted) {
      if (options.signal?.aborted) return { kind: 'failed', message: 'The export was cancelled; nothing was written.' };
      let rendered: RenderedPage;
      try {
        rendered = await renderer.render(document, page.page, options.imageSize, options.signal);
      } catch (error) {
        if (options.signal?.aborted) return { kind: 'failed', message: 'The export was cancelled; nothing was written.' };
        warnings.push(`${document.name}, page ${page.page}: left out, its image could not be rendered (${toFailure(error).message})`);
        continue;
      }
      const split = splitOf(document.id, options.validationShare);
      const record = { ...pairRecord(document, page, split, rendered), image };
      await write(path.join(stage, ...record.image.split('/')), rendered.png);
      records.push(record);
      lines[split].push(chatLine(options.format, options.prompt, record.image, pairText(pageMarkdown(page))));
    }
    if (records.length === 0) return { kind: 'failed', message: `None of the reviewed pages could be rendered; nothing was written. ${warnings.join('; ')}.` };
    const manifest = pairsManifest(options.format, options.prompt, options.imageSize, options.validationShare, records);
    await write(path.join(stage, 'train.jsonl'), jsonl(lines.train));
    await write(path.join(stage, 'validation.jsonl'), jsonl(lines.validation));
    await write(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
    // images first and the manifest last: a folder with a new manifest has all that it lists
    await mkdir(path.join(folder, 'images'), { recursive: true });
    for (const record of records) await rename(path.join(stage, ...record.image.split('/')), path.join(folder, ...record.image.split('/')));
    for (const name of FIXED_FILES) await rename(path.join(stage, name), path.join(folder, name));
    return {
      kind: 'written',
      folder,
      counts: manifest.counts,
      files: [...FIXED_FILES.map((name) => path.join(folder, name)), path.join(folder, 'images')],
      ...(warnings.length > 0 && { warnings }),
    };
  } catch (error) {
    return { kind: 'failed', message: `cannot write the pairs in ${folder} (${errorCode(error)}); nothing was written. Free some space or choose another folder.` };
  } finally {
    await rm(stage, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Image names made distinct: two documents with the same file name and id prefix (or names that
 * differ only in case, on a file system that ignores it) would otherwise write one image over the
 * other. Later ones get `-2`, `-3`... before `.png`.
 */
function distinctImages<T extends { image: string }>(pairs: readonly T[]): T[] {
  const taken = new Set<string>();
  return pairs.map((pair) => {
    let image = pair.image;
    for (let n = 2; taken.has(image.toLowerCase()); n++) image = pair.image.replace(/\.png$/, `-${n}.png`);
    taken.add(image.toLowerCase());
    return { ...pair, image };
  });
}

function jsonl(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join('');
}

async function existingFiles(files: readonly string[]): Promise<string[]> {
  const existing: string[] = [];
  for (const file of files) {
    if (await access(file).then(() => true, () => false)) existing.push(file);
  }
  return existing;
}

function errorCode(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  return code ?? message ?? String(error);
}

/**
 * Pages rendered by an engine host, each document opened once (with its password, when it has
 * one) and let go when the export ends, so a hostile PDF never runs in the caller's process.
 */
export class HostPageRenderer implements PageRenderer {
  private readonly opened = new Map<string, Promise<OpenedDocument>>();

  constructor(
    private readonly client: HostClient,
    private readonly passwordOf: (document: WorkspaceDocument) => string | undefined = () => undefined,
  ) {}

  async render(document: WorkspaceDocument, page: number, longSide: number, signal?: AbortSignal): Promise<RenderedPage> {
    let opening = this.opened.get(document.id);
    if (!opening) {
      opening = this.client.open(document.path, this.passwordOf(document), signal);
      this.opened.set(document.id, opening);
    }
    return this.client.render(await opening, page, longSide, signal);
  }

  async close(): Promise<void> {
    for (const opening of this.opened.values()) {
      const document = await opening.catch(() => undefined);
      if (document) this.client.close(document);
    }
    this.opened.clear();
  }
}

/** The chat format, instruction and image size a model package asks for. */
export interface PairSettings {
  format: PairFormat;
  prompt: string;
  imageSize: number;
}

/**
 * What the pairs look like for a model package: its plain prompt (DeepSeek-OCR's conversation) or,
 * with a chat template, jina-ocr-v1's instruction; images at its first resolution mode's base view
 * (the global view of Gundam modes). `chosen` overrides either; without a package, DeepSeek-OCR at 1024.
 */
export async function pairSettings(modelDir: string | null | undefined, chosen: { format?: PairFormat; imageSize?: number } = {}): Promise<PairSettings> {
  let fromPackage: PairSettings | undefined;
  if (modelDir) {
    const file = path.join(modelDir, 'manifest.json');
    let manifest: Manifest;
    try {
      manifest = manifestSchema.parse(JSON.parse((await readBoundedFile(file, 16 * 1024 * 1024, 'manifest')).toString('utf8')));
    } catch (error) {
      throw new Error(`${file}: not a Folio model package manifest (${error instanceof SyntaxError ? error.message : errorCode(error)}); choose the package folder tools/model wrote, or give the format and size yourself.`);
    }
    const format: PairFormat = manifest.prompt.kind === 'plain' ? 'deepseek-ocr' : 'jina-ocr-v1';
    const prompt = manifest.prompt.kind === 'plain' ? manifest.prompt.template : PAIR_PROMPTS[format];
    fromPackage = { format, prompt, imageSize: manifest.vision.resolution_modes[0]!.base_size };
  }
  const format = chosen.format ?? fromPackage?.format ?? 'deepseek-ocr';
  return {
    format,
    prompt: fromPackage && fromPackage.format === format ? fromPackage.prompt : PAIR_PROMPTS[format],
    imageSize: chosen.imageSize ?? fromPackage?.imageSize ?? DEFAULT_PAIR_IMAGE_SIZE,
  };
}
