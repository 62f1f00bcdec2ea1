/**
 * A checkpoint folder (config.json, safetensors shards, tokenizer.json, model card) -> a Folio model
 * package, reading one tensor at a time: the vision graphs of each view size, the token embedding, the
 * decoder in its cache layouts (the second layout finds every weight the first wrote), the FastMTP
 * head and the manifest. Memory holds one decoder layer's experts at most, never the model twice.
 *
 * Before anything is written the checkpoint is checked against its config: every config field
 * honoured or refused by name, every tensor the config calls for present with its shape, no tensor
 * Folio does not know, and the tokenizer's coverage of the vocabulary (ids it has no token for are
 * banned from decoding in the manifest).
 */

import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { PackageExportOptions, PackageExportProgress, ResolutionModeSpec } from '../../../shared/model-export.js';
import { readModelConfig, unknownFields, type ModelConfig } from './checkpoint-config.js';
import { CheckpointReader } from './checkpoint-reader.js';
import { checkTensors } from './checkpoint-tensors.js';
import { buildDecoder, buildEmbedding, buildMtp, type CacheLayout } from './decoder-graphs.js';
import { bannedTokenIds, candidateGrids, DECODING_RULES, graphEntry, readLicence, RESOLUTION_MODES, specialTokenIds, viewSizes, writeManifest, type DecodingRule } from './package-manifest.js';
import { PRECISIONS, PROVIDERS, type Precision } from './precision.js';
import { QuantisePool } from './quantise-pool.js';
import { buildVision } from './vision-graph.js';
import { WeightsFile } from './weights-file.js';

export interface ExportHooks {
  signal?: AbortSignal;
  onProgress?: (progress: PackageExportProgress) => void;
  onWarning?: (message: string) => void;
  /** Before each file is written, with its path. */
  onFile?: (file: string) => void;
}

/** A request the exporter refuses before reading any weight (a bad option, a checkpoint it cannot use). */
export class ExportRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExportRequestError';
  }
}

/** The decoder graphs each cache layout choice writes, by manifest name. */
const DECODER_GRAPHS: Record<NonNullable<PackageExportOptions['cacheLayout']>, [string, CacheLayout][]> = {
  both: [['decoder', 'rows'], ['decoder_capacity', 'capacity']],
  rows: [['decoder', 'rows']],
  capacity: [['decoder', 'capacity']],
};

function resolutionModes(options: PackageExportOptions, maxCrops: number): ResolutionModeSpec[] {
  return (options.modes ?? ['gundam']).map((mode) => {
    if (typeof mode !== 'string') return mode;
    const known = RESOLUTION_MODES[mode];
    if (!known) throw new ExportRequestError(`unknown mode ${JSON.stringify(mode)}; choose from ${Object.keys(RESOLUTION_MODES).join(', ')}`);
    return { ...known, max_crops: maxCrops };
  });
}

function precisionFor(options: PackageExportOptions): Precision {
  const base = PRECISIONS[options.precision];
  if (!base) throw new ExportRequestError(`unknown precision ${JSON.stringify(options.precision)}; choose int4, fp16 or fp32`);
  if (options.blockSize !== undefined && ![16, 32, 64, 128].includes(options.blockSize)) throw new ExportRequestError(`block size ${options.blockSize}: choose 16, 32, 64 or 128`);
  if (options.expertBlockSize !== undefined && ![0, 16, 32, 64, 128].includes(options.expertBlockSize)) throw new ExportRequestError(`expert block size ${options.expertBlockSize}: choose 0, 16, 32, 64 or 128`);
  return {
    ...base,
    blockSize: options.blockSize ?? base.blockSize,
    ...(options.expertBits !== undefined ? { expertBits: options.expertBits } : {}),
    ...(options.expertBlockSize !== undefined ? { expertBlockSize: options.expertBlockSize } : {}),
  };
}

function readJson(file: string, what: string): unknown {
  if (!existsSync(file)) throw new ExportRequestError(`${file}: missing; ${what}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ExportRequestError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

/** Lets a cancel (or the parent's messages) in between long synchronous steps. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new DOMException('the export was cancelled', 'AbortError');
}

/**
 * Writes the package into `options.outDir` and returns its manifest's path. On failure or cancel the
 * files it wrote are removed again; a manifest.json already there is removed first, so a package
 * half overwritten never reads as whole.
 */
export async function exportPackage(options: PackageExportOptions, hooks: ExportHooks = {}): Promise<string> {
  const { signal } = hooks;
  const progress = (step: string, done: number, total: number) => hooks.onProgress?.({ step, done, total });
  const checkpoint = options.checkpointDir;
  progress('check', 0, 1);
  const raw = readJson(path.join(checkpoint, 'config.json'), 'point at the checkpoint folder that holds config.json');
  if (options.allowUnknownConfig) for (const field of unknownFields(raw)) hooks.onWarning?.(`config.json field ${field} is unknown to Folio and ignored`);
  let config: ModelConfig = readModelConfig(raw, { allowUnknown: options.allowUnknownConfig, source: path.join(checkpoint, 'config.json') });
  const chatTemplate = existsSync(path.join(checkpoint, 'chat_template.jinja'));
  const maxCrops = options.maxCrops ?? (chatTemplate ? 9 : 6);
  if (!(Number.isInteger(maxCrops) && maxCrops >= 2 && maxCrops <= 9)) throw new ExportRequestError(`max crops ${maxCrops} is outside 2..9 (the reference allows at most 9 tiles)`);
  const modes = resolutionModes(options, maxCrops);
  for (const mode of modes) candidateGrids(mode);
  const decoding: DecodingRule = typeof options.decoding === 'object' ? options.decoding : DECODING_RULES[options.decoding ?? (chatTemplate ? 'jina-ocr-v1' : 'deepseek-ocr')];
  if (!decoding) throw new ExportRequestError(`unknown decoding rule ${JSON.stringify(options.decoding)}; choose deepseek-ocr or jina-ocr-v1`);
  const licence = options.licence ?? readLicence(checkpoint);
  if (!licence) throw new ExportRequestError(`${path.join(checkpoint, 'README.md')} states no licence; pass one (--licence)`);
  const precision = precisionFor(options);
  const cacheLayout = options.cacheLayout ?? 'both';
  const decoders = DECODER_GRAPHS[cacheLayout];
  if (!decoders) throw new ExportRequestError(`unknown cache layout ${JSON.stringify(cacheLayout)}; choose both, rows or capacity`);

  if (options.threads !== undefined && !(Number.isInteger(options.threads) && options.threads >= 0)) throw new ExportRequestError(`threads ${options.threads}: a whole number, 0 or more`);

  const reader = new CheckpointReader(checkpoint);
  let pool: QuantisePool | undefined;
  const written: string[] = [];
  const out = options.outDir;
  try {
    // int4 (and every package's 4-bit draft lm_head) spends most of its time quantising: on all cores
    pool = new QuantisePool(options.threads);
    const { quantise } = pool;
    config = checkTensors(reader, config, options.withoutDraftHead ?? false);
    const tokenizerPath = path.join(checkpoint, 'tokenizer.json');
    const tokenizer = readJson(tokenizerPath, 'the package needs the checkpoint\'s tokenizer.json') as Parameters<typeof specialTokenIds>[0];
    const specials = specialTokenIds(tokenizer);
    const banned = bannedTokenIds(tokenizer, config.decoder.vocab_size);
    if (banned.length) {
      const count = banned.reduce((n, [start, end]) => n + end - start, 0);
      hooks.onWarning?.(`the tokenizer has no token for ${count} id(s) below vocab_size ${config.decoder.vocab_size} (first: ${banned[0]![0]}); the manifest bans them from decoding`);
    }
    progress('check', 1, 1);
    mkdirSync(out, { recursive: true });
    rmSync(path.join(out, 'manifest.json'), { force: true });
    const file = (name: string) => {
      written.push(name);
      hooks.onFile?.(path.join(out, name));
      return path.join(out, name);
    };
    copyFileSync(tokenizerPath, file('tokenizer.json'));
    const graphs: Record<string, Record<string, unknown>> = {};
    const files = ['tokenizer.json'];
    const weightsFile = (name: string) => new WeightsFile(file(name));
    const closeWeights = (weights: WeightsFile) => {
      weights.close();
      if (weights.size > 0) files.push(weights.file);
    };

    // one weights file for every view size: the graphs differ only in their resized position tables
    const vision = weightsFile('vision.onnx.data');
    const sizes = viewSizes(modes);
    for (const [i, size] of sizes.entries()) {
      checkAbort(signal);
      progress(`vision_${size}`, i, sizes.length);
      await turn();
      const name = `vision_${size}.onnx`;
      graphs[`vision_${size}`] = graphEntry(name, buildVision({ reader, config, precision, size, path: file(name), weights: vision, quantise }));
      files.push(name);
    }
    closeWeights(vision);

    checkAbort(signal);
    progress('embedding', 0, 1);
    await turn();
    const embedding = weightsFile('embedding.onnx.data');
    graphs.embedding = graphEntry('embedding.onnx', buildEmbedding(reader, config.decoder, precision, file('embedding.onnx'), embedding));
    files.push('embedding.onnx');
    closeWeights(embedding);

    const decoderWeights = weightsFile('decoder.onnx.data');
    for (const [name, layout] of decoders) {
      const layers = config.decoder.num_hidden_layers;
      progress(name, 0, layers);
      const built = await buildDecoder({
        reader,
        config: config.decoder,
        precision,
        path: file(`${name}.onnx`),
        weights: decoderWeights,
        layout,
        pool,
        onLayer: async (layer) => {
          progress(name, layer + 1, layers);
          await turn();
          checkAbort(signal);
        },
      });
      graphs[name] = graphEntry(`${name}.onnx`, built);
      files.push(`${name}.onnx`);
    }
    closeWeights(decoderWeights);

    if (config.num_mtp_heads) {
      checkAbort(signal);
      progress('mtp', 0, 1);
      await turn();
      const mtp = weightsFile('mtp.onnx.data');
      graphs.mtp = graphEntry('mtp.onnx', buildMtp(reader, config.decoder, precision, file('mtp.onnx'), mtp, pool));
      files.push('mtp.onnx');
      closeWeights(mtp);
    }

    checkAbort(signal);
    const rowsDecoder = decoders.some(([name, layout]) => name === 'decoder' && layout === 'rows');
    // the WebGPU path keeps the decoder's cache on the device in the rows layout (its cache_append graphs)
    const providers = PROVIDERS[precision.name].filter((p) => rowsDecoder || p !== 'webgpu');
    const manifest = writeManifest({
      out,
      checkpoint,
      config,
      name: options.name ?? path.basename(path.resolve(checkpoint)),
      licence,
      precision: precision.name,
      providers,
      modes,
      decoding,
      specials,
      banned,
      graphs,
      files,
      onHashed: (done, total) => progress('manifest', done, total),
    });
    return manifest;
  } catch (error) {
    for (const name of written) rmSync(path.join(out, name), { force: true });
    throw error;
  } finally {
    pool?.close();
    reader.close();
  }
}
