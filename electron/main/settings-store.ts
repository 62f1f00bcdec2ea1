/** The app's settings in `settings.json` in the data folder; whatever is invalid in it reads as the default. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../core/output/atomic-write.js';
import { parseSettings, type Settings } from '../../shared/settings.js';

const SETTINGS_FILE = 'settings.json';

export async function loadSettings(dir: string): Promise<Settings> {
  try {
    return parseSettings(JSON.parse(await readFile(path.join(dir, SETTINGS_FILE), 'utf8')));
  } catch {
    // missing on first start, or damaged by hand: the defaults are a working app
    return parseSettings({});
  }
}

export async function saveSettings(dir: string, settings: Settings): Promise<void> {
  await writeFileAtomic(path.join(dir, SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`);
}
