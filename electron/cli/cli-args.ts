/** The `folio` command line, parsed into what to do; every mistake becomes a UsageError that says how to fix it. */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_ENGINE, DEFAULT_MAX_NEW_TOKENS, MAX_PAGES_IN_FLIGHT, MAX_SPEC_K, REMOTE_DEFAULTS, type PagesInFlight } from '../../shared/conversion-defaults.js';
import type { DemoModel } from '../../shared/demo-models.js';
import { deviceRequestText, parseDeviceRequest } from '../../shared/device.js';
import { ENGINE_CHOICES, type EngineChoice } from '../../shared/engine-name.js';
import { DEFAULT_VALIDATION_SHARE, PAIR_FORMATS, type PairFormat } from '../../shared/export/training-pairs.js';
import { OCR_LANGUAGES, type OcrLanguage } from '../../shared/ocr-languages.js';
import { PageRangeError, parsePageRanges, type PageRange } from '../../shared/page-range.js';
import { defaultPageTimeLimitMs } from '../core/page-time-limit.js';
import type { VlmRequest } from '../core/model/vlm-options.js';
import { OUTPUT_FORMATS, type OutputFormat } from '../core/output/output-files.js';
import { DemoModelNotInstalledError, locateDemoModel, type LocatedDemoModel } from '../core/model/demo-model-location.js';
import { DEFAULT_MODEL_PRECISION, MODEL_PRECISIONS, parseRepoReference, type ModelPrecision } from '../../shared/model-library.js';
import { appDataFolder } from './app-data-folder.js';
import { REMOTE_IMAGE_FORMATS, type RemoteImageFormat, type RemoteOptions } from '../../shared/protocol.js';
import type { PackageExportOptions } from '../../shared/model-export.js';

export interface ConvertRequest {
  files: string[];
  outDir: string;
  /** Undefined: every page. */
  pages?: PageRange[];
  formats: OutputFormat[];
  splitPages: boolean;
  engine: EngineChoice;
  keepHeaders: boolean;
  images: boolean;
  password?: string;
  pageTimeoutMs: number;
  json: boolean;
  vlm?: VlmRequest;
  /** --lang: what the lite OCR engine reads pages as; undefined: auto. */
  lang?: OcrLanguage;
  /** Set by --server; the API key is not here (FOLIO_API_KEY reaches the engine host by its environment). */
  remote?: RemoteOptions;
}

/** `folio bench DIR`: an engine run over an olmOCR-Bench-format folder and scored. */
export interface BenchRequest {
  dir: string;
  engine: EngineChoice;
  keepHeaders: boolean;
  password?: string;
  pageTimeoutMs: number;
  json: boolean;
  vlm?: VlmRequest;
  remote?: RemoteOptions;
  lang?: OcrLanguage;
  /** Where to write each page's Markdown as `<pdf>_pg<N>_repeat1.md`, the layout olmOCR's own scorer reads. */
  outDir?: string;
  /** --outputs: score the Markdown already in this folder (olmOCR's layout) instead of converting. */
  outputsDir?: string;
}

export interface ServeCheckRequest {
  server: string;
  /** Undefined: the first model the server lists. */
  model?: string;
  timeoutMs: number;
}

/** `folio export-pairs`: fine-tuning pairs from the app's workspace. */
export interface ExportPairsRequest {
  outDir: string;
  /** The app's data folder; undefined: found where the app keeps it (app-data-folder.ts). */
  workspaceDir?: string;
  /** Document ids, file paths or file names; empty: every document. */
  documents: string[];
  /** A model package whose prompt and view size the pairs follow. */
  modelDir?: string;
  format?: PairFormat;
  imageSize?: number;
  validationShare: number;
  password?: string;
  overwrite: boolean;
  pageTimeoutMs: number;
}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'export-pairs'; request: ExportPairsRequest }
  | { kind: 'version' }
  | { kind: 'doctor' }
  | { kind: 'convert'; request: ConvertRequest }
  | { kind: 'bench'; request: BenchRequest }
  | { kind: 'serve-check'; request: ServeCheckRequest }
  | { kind: 'export-model'; request: PackageExportOptions }
  | { kind: 'model'; request: ModelRequest };

/** `folio model get|list|remove`: packages installed from Hugging Face into the app-data folder. */
export type ModelRequest =
  | { action: 'get'; source: string; precision: ModelPrecision }
  | { action: 'list'; json: boolean }
  | { action: 'remove'; id: string };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const REMOTE_FLAGS = ['concurrency', 'timeout', 'retries', 'image-size', 'image-format', 'prompt', 'extra-body'] as const;

/** The engine settings convert and bench share. */
const ENGINE_OPTIONS = {
  engine: { type: 'string' },
  'keep-headers': { type: 'boolean' },
  password: { type: 'string' },
  'page-timeout': { type: 'string' },
  json: { type: 'boolean' },
  model: { type: 'string' },
  'spec-k': { type: 'string' },
  'pages-in-flight': { type: 'string' },
  mode: { type: 'string' },
  'max-tokens': { type: 'string' },
  device: { type: 'string' },
  lang: { type: 'string' },
  server: { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
  'image-size': { type: 'string' },
  'image-format': { type: 'string' },
  prompt: { type: 'string' },
  'extra-body': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type EngineValues = { [flag in keyof typeof ENGINE_OPTIONS]?: (typeof ENGINE_OPTIONS)[flag]['type'] extends 'boolean' ? boolean : string };

const CONVERT_OPTIONS = {
  out: { type: 'string', short: 'o' },
  pages: { type: 'string' },
  format: { type: 'string' },
  'split-pages': { type: 'boolean' },
  images: { type: 'boolean' },
  ...ENGINE_OPTIONS,
} as const;

/** Convert's engine settings, without its output choices. */
const BENCH_OPTIONS = {
  out: { type: 'string', short: 'o' },
  outputs: { type: 'string' },
  ...ENGINE_OPTIONS,
} as const;

const EXPORT_PAIRS_OPTIONS = {
  out: { type: 'string', short: 'o' },
  workspace: { type: 'string' },
  model: { type: 'string' },
  format: { type: 'string' },
  size: { type: 'string' },
  split: { type: 'string' },
  password: { type: 'string' },
  overwrite: { type: 'boolean' },
  'page-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVE_CHECK_OPTIONS = {
  model: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Async because a `--model` id is looked up in the installed packages, loaded only then. */
export async function parseCommandLine(argv: readonly string[]): Promise<CliCommand> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { kind: 'help' };
  if (command === '--version' || command === '-v') return { kind: 'version' };
  if (command === 'doctor') return { kind: 'doctor' };
  if (command === 'convert') return parseConvert(rest);
  if (command === 'serve-check') return parseServeCheck(rest);
  if (command === 'bench') return parseBench(rest);
  if (command === 'export-pairs') return parseExportPairs(rest);
  if (command === 'model') return parseModel(rest);
  if (command === 'export-model') return parseExportModel(rest);
  throw new UsageError(`unknown command "${command}"; try "folio convert <files...> -o <dir>" or "folio --help".`);
}

/** A subcommand's options and positionals, or a UsageError in parseArgs' words. */
function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; see "folio --help".`);
  }
}

/** What convert and bench both take: the engine and its settings. */
async function engineSettings(values: EngineValues) {
  const engine = parseEngine(values.engine ?? DEFAULT_ENGINE);
  const remote = parseRemote(engine, values);
  const vlm = remote ? undefined : await parseVlm(engine, values);
  return {
    engine,
    keepHeaders: values['keep-headers'] ?? false,
    password: values.password,
    pageTimeoutMs: values['page-timeout'] === undefined ? defaultPageTimeLimitMs(engine, vlm) : parsePageTimeout(values['page-timeout']) * 1000,
    json: values.json ?? false,
    vlm,
    remote,
    lang: values.lang === undefined ? undefined : parseLang(values.lang),
  };
}

async function parseConvert(args: string[]): Promise<CliCommand> {
  const { values, positionals } = parseOptions(args, CONVERT_OPTIONS);
  if (values.help) return { kind: 'help' };
  if (positionals.length === 0) throw new UsageError('no input files; give one or more PDFs: folio convert <files...> -o <dir>.');
  if (values.out === undefined) throw new UsageError('no output folder; add -o <dir>.');
  return {
    kind: 'convert',
    request: {
      files: positionals,
      outDir: values.out,
      pages: values.pages === undefined ? undefined : parsePages(values.pages),
      formats: parseFormats(values.format ?? 'md'),
      splitPages: values['split-pages'] ?? false,
      images: values.images ?? false,
      ...(await engineSettings(values)),
    },
  };
}

async function parseBench(args: string[]): Promise<CliCommand> {
  const { values, positionals } = parseOptions(args, BENCH_OPTIONS);
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1) throw new UsageError('bench takes one benchmark folder (*.jsonl test files and pdfs/): folio bench <dir>.');
  if (values.outputs !== undefined) {
    const converting = (['out', 'engine', 'model', 'server'] as const).find((flag) => values[flag] !== undefined);
    if (converting) throw new UsageError(`--outputs scores Markdown already written and converts nothing, so --${converting} has no use with it.`);
  }
  return { kind: 'bench', request: { dir: positionals[0]!, outDir: values.out, outputsDir: values.outputs, ...(await engineSettings(values)) } };
}

async function parseVlm(
  engine: EngineChoice,
  values: { model?: string; 'spec-k'?: string; mode?: string; 'max-tokens'?: string; device?: string; 'pages-in-flight'?: string },
): Promise<VlmRequest | undefined> {
  if (values.model === undefined) {
    if (engine === 'vlm') throw new UsageError('--engine vlm needs a model package; add --model <dir>.');
    const stray = (['spec-k', 'mode', 'max-tokens', 'device', 'pages-in-flight'] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} sets up the vlm engine, which needs a model package; add --model <dir>.`);
    return undefined;
  }
  const demo = demoModelNamed(values.model);
  return {
    modelDir: demo?.dir ?? (await modelFolderNamed(values.model)),
    ...(demo && { demo: demo.model }),
    specK: values['spec-k'] === undefined ? undefined : parseSpecK(values['spec-k']),
    mode: values.mode,
    maxNewTokens: values['max-tokens'] === undefined ? DEFAULT_MAX_NEW_TOKENS : parseMaxTokens(values['max-tokens']),
    ...(values.device !== undefined && { device: parseDevice(values.device) }),
    ...(values['pages-in-flight'] !== undefined && { pagesInFlight: parsePagesInFlight(values['pages-in-flight']) }),
  };
}

function parsePagesInFlight(text: string): PagesInFlight {
  if (text === 'auto') return 'auto';
  const pages = Number(text);
  if (!Number.isInteger(pages) || pages < 1 || pages > MAX_PAGES_IN_FLIGHT) throw new UsageError(`--pages-in-flight "${text}" is not auto or a whole number from 1 to ${MAX_PAGES_IN_FLIGHT}.`);
  return pages;
}

function parseDevice(text: string): string {
  const request = parseDeviceRequest(text);
  if (!request) throw new UsageError(`--device "${text}" is not one of auto, cpu, webgpu, cuda, cuda:N.`);
  return deviceRequestText(request);
}

/** `--model nano-demo` selects that demo model's package, unless a folder of that name is here. */
function demoModelNamed(text: string): LocatedDemoModel | undefined {
  if (existsSync(path.resolve(text))) return undefined;
  try {
    return locateDemoModel(text);
  } catch (error) {
    if (error instanceof DemoModelNotInstalledError) throw new UsageError(`--model ${text}: ${error.message}.`);
    throw error;
  }
}

/**
 * `--model acme/ocr-test` (or `acme/ocr-test:fp16`) selects the package `folio model get` installed
 * under that id, unless a folder of that name is here; anything else is a folder. The installed
 * packages' module (and zod, which reads their records) loads only here: not on a command without one.
 */
async function modelFolderNamed(text: string): Promise<string> {
  const folder = path.resolve(text);
  if (existsSync(folder) || !parseRepoReference(text.split(':')[0] ?? '')) return folder;
  const { findInstalled, installedIds, modelsFolder } = await import('../core/model/installed-models.js');
  const modelsDir = modelsFolder(appDataFolder());
  const installed = findInstalled(modelsDir, text);
  if (installed) return installed.folder;
  const known = installedIds(modelsDir);
  throw new UsageError(
    `--model ${text}: no such folder, and no model installed as ${text} (${known.length ? `installed: ${known.join(', ')}` : `none installed in ${modelsDir}`}); ` +
      `"folio model get ${text.split(':')[0]}" installs it.`,
  );
}

type RemoteValues = { [flag in (typeof REMOTE_FLAGS)[number] | 'server' | 'model' | 'spec-k' | 'mode' | 'max-tokens' | 'device' | 'pages-in-flight']?: string };

/** --server turns --model into the name the server serves; the remote flags mean nothing without it. */
function parseRemote(engine: EngineChoice, values: RemoteValues): RemoteOptions | undefined {
  if (values.server === undefined) {
    if (engine === 'remote') throw new UsageError('--engine remote needs a server; add --server <url> --model <name>.');
    const stray = REMOTE_FLAGS.find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} sets up the remote engine, which needs a server; add --server <url>.`);
    return undefined;
  }
  if (engine !== 'remote' && engine !== 'auto') throw new UsageError(`--server is for --engine remote, not --engine ${engine}.`);
  if (values.model === undefined) throw new UsageError('--server needs the model it serves; add --model <name> ("folio serve-check <url>" lists them).');
  const stray = (['spec-k', 'mode', 'device', 'pages-in-flight'] as const).find((flag) => values[flag] !== undefined);
  if (stray) throw new UsageError(`--${stray} is a vlm engine setting; the remote server decides its own decoding${stray === 'pages-in-flight' ? ' (its pages in flight: --concurrency)' : ''}.`);
  return {
    server: parseServer(values.server, '--server'),
    model: values.model,
    concurrency: positiveInteger(values.concurrency, REMOTE_DEFAULTS.concurrency, '--concurrency'),
    timeoutMs: parseSeconds(values.timeout, REMOTE_DEFAULTS.timeoutS, '--timeout') * 1000,
    retries: values.retries === undefined ? REMOTE_DEFAULTS.retries : wholeNumber(values.retries, '--retries'),
    imageLongSide: positiveInteger(values['image-size'], REMOTE_DEFAULTS.imageLongSide, '--image-size'),
    imageFormat: parseImageFormat(values['image-format'] ?? REMOTE_DEFAULTS.imageFormat),
    maxTokens: positiveInteger(values['max-tokens'], DEFAULT_MAX_NEW_TOKENS, '--max-tokens'),
    prompt: values.prompt,
    extraBody: values['extra-body'] === undefined ? undefined : parseExtraBody(values['extra-body']),
  };
}

async function parseExportPairs(args: string[]): Promise<CliCommand> {
  const { values, positionals } = parseOptions(args, EXPORT_PAIRS_OPTIONS);
  if (values.help) return { kind: 'help' };
  if (values.out === undefined) throw new UsageError('no output folder; add -o <dir> (train.jsonl, validation.jsonl, images/ and manifest.json go there).');
  const format = values.format === undefined ? undefined : PAIR_FORMATS.find((choice) => choice === values.format);
  if (values.format !== undefined && !format) throw new UsageError(`--format "${values.format}" is not one of ${PAIR_FORMATS.join(', ')}.`);
  const size = values.size === undefined ? undefined : positiveInteger(values.size, 0, '--size');
  if (size !== undefined && (size < 64 || size > 4096)) throw new UsageError(`--size ${size} is outside 64 to 4096 pixels; DeepSeek-OCR's and jina-ocr-v1's base view is 1024.`);
  return {
    kind: 'export-pairs',
    request: {
      outDir: values.out,
      workspaceDir: values.workspace,
      documents: positionals,
      modelDir: values.model === undefined ? undefined : (demoModelNamed(values.model)?.dir ?? (await modelFolderNamed(values.model))),
      format,
      imageSize: size,
      validationShare: values.split === undefined ? DEFAULT_VALIDATION_SHARE : parseShare(values.split),
      password: values.password,
      overwrite: values.overwrite ?? false,
      pageTimeoutMs: values['page-timeout'] === undefined ? 60_000 : parsePageTimeout(values['page-timeout']) * 1000,
    },
  };
}

const MODEL_GET_OPTIONS = {
  precision: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function parseModel(args: string[]): CliCommand {
  const [action, ...rest] = args;
  if (action === 'get') {
    const { values, positionals } = parseOptions(rest, MODEL_GET_OPTIONS);
    if (values.help) return { kind: 'help' };
    if (positionals.length !== 1) throw new UsageError('model get takes one Hugging Face repo or checkpoint folder: folio model get jinaai/jina-ocr-v1 [--precision int4|fp16|fp32].');
    const precision = MODEL_PRECISIONS.find((choice) => choice === (values.precision ?? DEFAULT_MODEL_PRECISION));
    if (!precision) throw new UsageError(`--precision "${values.precision}" is not one of ${MODEL_PRECISIONS.join(', ')}.`);
    return { kind: 'model', request: { action, source: positionals[0]!, precision } };
  }
  if (action === 'list') {
    const { values, positionals } = parseOptions(rest, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const);
    if (values.help) return { kind: 'help' };
    if (positionals.length > 0) throw new UsageError('model list takes no arguments.');
    return { kind: 'model', request: { action, json: values.json ?? false } };
  }
  if (action === 'remove') {
    const { values, positionals } = parseOptions(rest, { help: { type: 'boolean', short: 'h' } } as const);
    if (values.help) return { kind: 'help' };
    const id = positionals[0];
    if (positionals.length !== 1 || !id || !parseRepoReference(id.split(':')[0] ?? '') || id.includes('@')) {
      throw new UsageError('model remove takes one installed model: folio model remove owner/name[:int4|fp16|fp32] ("folio model list" shows them).');
    }
    return { kind: 'model', request: { action, id } };
  }
  throw new UsageError(`model ${action === undefined ? 'needs' : `"${action}" is not`} one of get, list, remove: folio model get owner/name | list | remove owner/name.`);
}

const EXPORT_MODEL_OPTIONS = {
  out: { type: 'string', short: 'o' },
  precision: { type: 'string' },
  modes: { type: 'string' },
  'max-crops': { type: 'string' },
  decoding: { type: 'string' },
  licence: { type: 'string' },
  name: { type: 'string' },
  'without-draft-head': { type: 'boolean' },
  'allow-unknown-config': { type: 'boolean' },
  'cache-layout': { type: 'string' },
  'block-size': { type: 'string' },
  'expert-bits': { type: 'string' },
  'expert-block-size': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function oneOf<T extends string>(value: string | undefined, choices: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  const choice = choices.find((c) => c === value);
  if (!choice) throw new UsageError(`${flag} "${value}" is not one of ${choices.join(', ')}.`);
  return choice;
}

function parseExportModel(args: string[]): CliCommand {
  const { values, positionals } = parseOptions(args, EXPORT_MODEL_OPTIONS);
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1) throw new UsageError('export-model takes one checkpoint folder: folio export-model <checkpoint> -o <package>.');
  if (values.out === undefined) throw new UsageError('no output folder; add -o <package folder>.');
  const number = (flag: keyof typeof values, choices: readonly number[]) => {
    const text = values[flag] as string | undefined;
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!choices.includes(n)) throw new UsageError(`--${flag} "${text}" is not one of ${choices.join(', ')}.`);
    return n;
  };
  const expertBits = number('expert-bits', [4, 8]) as 4 | 8 | undefined;
  return {
    kind: 'export-model',
    request: {
      checkpointDir: positionals[0]!,
      outDir: values.out,
      precision: oneOf(values.precision, ['int4', 'fp16', 'fp32'] as const, '--precision') ?? 'int4',
      ...(values.modes === undefined ? {} : { modes: values.modes.split(',') }),
      ...(values['max-crops'] === undefined ? {} : { maxCrops: number('max-crops', [2, 3, 4, 5, 6, 7, 8, 9]) }),
      ...(values.decoding === undefined ? {} : { decoding: oneOf(values.decoding, ['deepseek-ocr', 'jina-ocr-v1'] as const, '--decoding') }),
      ...(values.licence === undefined ? {} : { licence: values.licence }),
      ...(values.name === undefined ? {} : { name: values.name }),
      withoutDraftHead: values['without-draft-head'] ?? false,
      allowUnknownConfig: values['allow-unknown-config'] ?? false,
      cacheLayout: oneOf(values['cache-layout'], ['both', 'rows', 'capacity'] as const, '--cache-layout') ?? 'both',
      ...(values['block-size'] === undefined ? {} : { blockSize: number('block-size', [16, 32, 64, 128]) }),
      ...(expertBits === undefined ? {} : { expertBits }),
      ...(values['expert-block-size'] === undefined ? {} : { expertBlockSize: number('expert-block-size', [0, 16, 32, 64, 128]) }),
    },
  };
}

function parseShare(text: string): number {
  const share = Number(text);
  if (!Number.isFinite(share) || share < 0 || share > 1) throw new UsageError(`--split "${text}" is not a share from 0 to 1, e.g. 0.1 for a tenth of the documents in validation.`);
  return share;
}

function parseServeCheck(args: string[]): CliCommand {
  const { values, positionals } = parseOptions(args, SERVE_CHECK_OPTIONS);
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1) throw new UsageError('serve-check takes one server address: folio serve-check http://gpu-box:8000.');
  return {
    kind: 'serve-check',
    request: { server: parseServer(positionals[0]!, 'the server address'), model: values.model, timeoutMs: parseSeconds(values.timeout, 60, '--timeout') * 1000 },
  };
}

function parseServer(text: string, what: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${what} "${text}" is not an address; write it like http://gpu-box:8000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${what} must start with http:// or https://.`);
  if (url.username || url.password) throw new UsageError(`${what} must not hold a user or password; put the API key in FOLIO_API_KEY.`);
  return text;
}

function parseImageFormat(text: string): RemoteImageFormat {
  const format = REMOTE_IMAGE_FORMATS.find((choice) => choice === text.toLowerCase());
  if (!format) throw new UsageError(`--image-format "${text}" is not one of ${REMOTE_IMAGE_FORMATS.join(', ')}.`);
  return format;
}

function parseExtraBody(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--extra-body is not JSON; write it like '{"skip_special_tokens": false}'.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--extra-body must be a JSON object of request fields.');
  return parsed as Record<string, unknown>;
}

function positiveInteger(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} "${text}" is not a positive whole number.`);
  return value;
}

function wholeNumber(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`${flag} "${text}" is not a whole number (0 or more).`);
  return value;
}

function parseSeconds(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`${flag} "${text}" is not a positive number of seconds.`);
  return seconds;
}

function parseSpecK(text: string): number | 'auto' {
  if (text === 'auto') return text;
  const k = Number(text);
  if (!Number.isInteger(k) || k < 0 || k > MAX_SPEC_K) throw new UsageError(`--spec-k "${text}" is not auto or a whole number from 0 to ${MAX_SPEC_K}.`);
  return k;
}

function parseMaxTokens(text: string): number {
  const tokens = Number(text);
  if (!Number.isInteger(tokens) || tokens < 1) throw new UsageError(`--max-tokens "${text}" is not a positive whole number.`);
  return tokens;
}

function parsePages(text: string): PageRange[] {
  try {
    return parsePageRanges(text);
  } catch (error) {
    if (error instanceof PageRangeError) throw new UsageError(`--pages ${error.message}`);
    throw error;
  }
}

function parseFormats(text: string): OutputFormat[] {
  const formats = text.split(',').map((format) => format.trim().toLowerCase());
  for (const format of formats) {
    if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
      throw new UsageError(`--format "${format}" is not one of ${OUTPUT_FORMATS.join(', ')}; write e.g. --format md,html.`);
    }
  }
  return [...new Set(formats as OutputFormat[])];
}

function parseLang(text: string): OcrLanguage {
  const lang = OCR_LANGUAGES.find((choice) => choice === text);
  if (!lang) throw new UsageError(`--lang "${text}" is not one of ${OCR_LANGUAGES.join(', ')}.`);
  return lang;
}

function parseEngine(text: string): EngineChoice {
  const engine = ENGINE_CHOICES.find((choice) => choice === text);
  if (!engine) throw new UsageError(`--engine "${text}" is not one of ${ENGINE_CHOICES.join(', ')}.`);
  return engine;
}

function parsePageTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--page-timeout "${text}" is not a positive number of seconds.`);
  return seconds;
}
