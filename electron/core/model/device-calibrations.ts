/**
 * The file in the app-data folder where `--device auto` keeps what each device measured of a
 * package (written by the engine host, read by `folio doctor`).
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
const storeSchema = z.record(z.string(), entrySchema);

export type Calibration = z.infer<typeof entrySchema>;

/** The calibrations kept in `dir`; none when the file is missing or unreadable (it is then measured again). */
export async function readCalibrations(dir: string): Promise<Map<string, Calibration>> {
  try {
    const parsed = storeSchema.safeParse(JSON.parse(await readFile(path.join(dir, CALIBRATION_FILE), 'utf8')));
    return new Map(parsed.success ? Object.entries(parsed.data) : []);
  } catch {
    return new Map();
  }
}

/** Adds measurements to the file in `dir`, written whole and renamed into place so a reader never sees half. */
export async function saveCalibrations(dir: string, added: ReadonlyMap<string, Calibration>): Promise<void> {
  const all = await readCalibrations(dir);
  for (const [key, calibration] of added) all.set(key, calibration);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, CALIBRATION_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(Object.fromEntries(all), null, 1)}\n`);
  await rename(temporary, file);
}
