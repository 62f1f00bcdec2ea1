/** The `folio` command line, parsed into what to do; every mistake becomes a UsageError that says how to fix it. */

import path from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_CHOICES, type EngineChoice } from '../../shared/engine-name.js';
import { PageRangeError, parsePageRanges, type PageRange } from '../../shared/page-range.js';
import { defaultPageTimeLimitMs } from '../engine/page-time-limit.js';

export const OUTPUT_FORMATS = ['md', 'html', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

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
}

/** The VLM flags as given; an unset `specK` is decided by the package (see vlm-options.ts). */
export interface VlmRequest {
  modelDir: string;
  specK?: number | 'auto';
  mode?: string;
  maxNewTokens: number;
}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'doctor' }
  | { kind: 'convert'; request: ConvertRequest };

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const DEFAULT_MAX_TOKENS = 4096;
const MAX_SPEC_K = 4;

const CONVERT_OPTIONS = {
  out: { type: 'string', short: 'o' },
  pages: { type: 'string' },
  format: { type: 'string' },
  'split-pages': { type: 'boolean' },
  engine: { type: 'string' },
  'keep-headers': { type: 'boolean' },
  images: { type: 'boolean' },
  password: { type: 'string' },
  'page-timeout': { type: 'string' },
  json: { type: 'boolean' },
  model: { type: 'string' },
  'spec-k': { type: 'string' },
  mode: { type: 'string' },
  'max-tokens': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseCommandLine(argv: readonly string[]): CliCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') return { kind: 'help' };
  if (command === '--version' || command === '-v') return { kind: 'version' };
  if (command === 'doctor') return { kind: 'doctor' };
  if (command === 'convert') return parseConvert(rest);
  throw new UsageError(`unknown command "${command}"; try "folio convert <files...> -o <dir>" or "folio --help".`);
}

function parseConvert(args: string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({ args, options: CONVERT_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; see "folio --help".`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length === 0) throw new UsageError('no input files; give one or more PDFs: folio convert <files...> -o <dir>.');
  if (values.out === undefined) throw new UsageError('no output folder; add -o <dir>.');
  const engine = parseEngine(values.engine ?? 'auto');
  const vlm = parseVlm(engine, values);
  return {
    kind: 'convert',
    request: {
      files: positionals,
      outDir: values.out,
      pages: values.pages === undefined ? undefined : parsePages(values.pages),
      formats: parseFormats(values.format ?? 'md'),
      splitPages: values['split-pages'] ?? false,
      engine,
      keepHeaders: values['keep-headers'] ?? false,
      images: values.images ?? false,
      password: values.password,
      pageTimeoutMs: values['page-timeout'] === undefined ? defaultPageTimeLimitMs(engine, vlm) : parsePageTimeout(values['page-timeout']) * 1000,
      json: values.json ?? false,
      vlm,
    },
  };
}

function parseVlm(
  engine: EngineChoice,
  values: { model?: string; 'spec-k'?: string; mode?: string; 'max-tokens'?: string },
): VlmRequest | undefined {
  if (values.model === undefined) {
    if (engine === 'vlm') throw new UsageError('--engine vlm needs a model package; add --model <dir>.');
    const stray = (['spec-k', 'mode', 'max-tokens'] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} sets up the vlm engine, which needs a model package; add --model <dir>.`);
    return undefined;
  }
  return {
    modelDir: path.resolve(values.model),
    specK: values['spec-k'] === undefined ? undefined : parseSpecK(values['spec-k']),
    mode: values.mode,
    maxNewTokens: values['max-tokens'] === undefined ? DEFAULT_MAX_TOKENS : parseMaxTokens(values['max-tokens']),
  };
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
