/** Where the desktop app keeps its data (and so its workspace), as Electron's `userData` places it. */

import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * FOLIO_USER_DATA_DIR when set (the app honours it too), else the OS's application-data folder
 * with `Folio` (the packaged app's name) or `folio` (a development run's), whichever holds a workspace.
 */
export function appDataFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (env.FOLIO_USER_DATA_DIR) return env.FOLIO_USER_DATA_DIR;
  const base =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? path.join(home, 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? path.join(home, '.config'));
  const candidates = [path.join(base, 'Folio'), path.join(base, 'folio')];
  return candidates.find((folder) => existsSync(path.join(folder, 'workspace.json'))) ?? candidates[0]!;
}
