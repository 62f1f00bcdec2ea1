/**
 * The files in the app-data folder where `--device auto` keeps what each device measured of a
 * package (written by the engine host, read by `folio doctor`), and `--pages-in-flight auto` what
 * packed decoder passes cost there.
 */

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const CALIBRATION_FILE = 'device-calibration.json';

const entrySchema = z.object({
  /** The package's name, for `folio doctor`. */
  package: z.string(),
  device: z.string(),
  // JSON has no NaN: a K not measured is null
  stepMs: z.array(z.number().nullable()),
  catchUpMsPerRow: z.number().nullable().default(null),
  prefillMs: z.number(),
  totalMs: z.number(),
  measuredAt: z.string(),
});

export type Calibration = z.infer<typeof entrySchema>;

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
