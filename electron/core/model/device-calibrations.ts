/**
 * The files in the app-data folder where `--device auto` keeps what each device measured of a
 * package, its decoding steps and a typical page's parts (written by the engine host, read by
 * `folio doctor`), and `--pages-in-flight auto` what packed decoder passes cost there.
 */

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const CALIBRATION_FILE = 'device-calibration.json';

/**
 * A typical page's time on a device, by part (engine/vlm/page-costs.ts), milliseconds: the vision
 * encoder on its views, the prefill of its prompt, decoding `tokens` new tokens.
 */
const pageSchema = z.object({
  tokens: z.int().min(1),
  promptRows: z.int().min(1),
  /** Tiles besides the global view; 0: none. */
  tiles: z.int().min(0),
  visionMs: z.number().min(0),
  prefillMs: z.number().min(0),
  decodeMs: z.number().min(0),
  /** False: the device lost before every part was measured (a part not measured is 0), so its page takes at least the sum. */
  complete: z.boolean(),
  /** What measuring the page's parts took, the steps' measurement included. */
  totalMs: z.number(),
});

export type PageCosts = z.infer<typeof pageSchema>;

const entrySchema = z.object({
  /** The package's name, for `folio doctor`. */
  package: z.string(),
  device: z.string(),
  // JSON has no NaN: a K not measured is null
  stepMs: z.array(z.number().nullable()),
  catchUpMsPerRow: z.number().nullable().default(null),
  prefillMs: z.number(),
  totalMs: z.number(),
  /** A typical page's parts; null in a file written before pages were weighed (the device is measured again). */
  page: pageSchema.nullable().default(null),
  measuredAt: z.string(),
});

export type Calibration = z.infer<typeof entrySchema>;

/** A page's time on a device, ms: its parts summed (a measurement cut short: at least this). */
export function pageMs(page: PageCosts): number {
  return page.visionMs + page.prefillMs + page.decodeMs;
}

/**
 * "12.0 s a page (vision of 6 tiles and the view 9.1 s, prefill of 949 rows 1.9 s, 1000 tokens
 * 1.0 s)"; a device cut short: "over" the parts it measured; a calibration kept from before pages
 * were weighed: its plain step.
 */
export function pageSummary(calibration: Calibration): string {
  const page = calibration.page;
  if (!page) return `${calibration.stepMs[0] ?? '?'} ms a step, no page measured`;
  const parts = [
    ...(page.complete || page.visionMs ? [`vision${page.tiles ? ` of ${page.tiles} tiles and the view` : ''} ${formatDuration(page.visionMs)}`] : []),
    ...(page.complete || page.prefillMs ? [`prefill of ${page.promptRows} rows ${formatDuration(page.prefillMs)}`] : []),
    `${page.tokens} tokens ${formatDuration(page.decodeMs)}`,
  ];
  const cut = page.complete ? '' : '; cut short once slower';
  return `${page.complete ? '' : 'over '}${formatDuration(pageMs(page))} a page (${parts.join(', ')}${cut})`;
}

/** "0.4 ms", "85 ms", "2.1 s". */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return `${ms >= 10 ? ms.toFixed(0) : ms.toFixed(1)} ms`;
}

/** The calibrations kept in `dir`; none when the file is missing or unreadable (it is then measured again). */
export function readCalibrations(dir: string): Promise<Map<string, Calibration>> {
  return readStore(dir, CALIBRATION_FILE, entrySchema);
}

/** Adds measurements to the file in `dir`, written whole and renamed into place so a reader never sees half. */
export function saveCalibrations(dir: string, added: ReadonlyMap<string, Calibration>): Promise<void> {
  return saveStore(dir, CALIBRATION_FILE, entrySchema, added);
}

/** Where `--pages-in-flight auto` keeps what packed decoder passes cost, by the same key as a device's calibration. */
export const PACKED_PASS_FILE = 'packed-pass-calibration.json';

const packedPassSchema = z.object({
  package: z.string(),
  device: z.string(),
  /** Least ms of one decoder pass with one row of each of `pages` pages. */
  passMs: z.array(z.object({ pages: z.int().min(1), ms: z.number().positive() })).min(1),
  totalMs: z.number(),
  measuredAt: z.string(),
});

export type PackedPassCalibration = z.infer<typeof packedPassSchema>;

export function readPackedPassCalibrations(dir: string): Promise<Map<string, PackedPassCalibration>> {
  return readStore(dir, PACKED_PASS_FILE, packedPassSchema);
}

export function savePackedPassCalibrations(dir: string, added: ReadonlyMap<string, PackedPassCalibration>): Promise<void> {
  return saveStore(dir, PACKED_PASS_FILE, packedPassSchema, added);
}

async function readStore<T>(dir: string, file: string, schema: z.ZodType<T>): Promise<Map<string, T>> {
  try {
    const parsed = z.record(z.string(), schema).safeParse(JSON.parse(await readFile(path.join(dir, file), 'utf8')));
    return new Map(parsed.success ? Object.entries(parsed.data) : []);
  } catch {
    return new Map();
  }
}

async function saveStore<T>(dir: string, file: string, schema: z.ZodType<T>, added: ReadonlyMap<string, T>): Promise<void> {
  const all = await readStore(dir, file, schema);
  for (const [key, value] of added) all.set(key, value);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, file);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(Object.fromEntries(all), null, 1)}\n`);
  await rename(temporary, target);
}
