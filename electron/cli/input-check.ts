/**
 * Inputs that cannot be converted whatever the engine (missing, a folder, unreadable, empty), found
 * with one stat before an engine host starts: a typo fails in milliseconds, not after a host start.
 */

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { Failure } from '../../shared/failure.js';
import { emptyInput, unreadableInput } from '../../shared/input-failure.js';

/** Why `file` cannot be opened at all, or undefined when the engine host should look inside it. */
export async function inputFailure(file: string): Promise<Failure | undefined> {
  try {
    const stats = await stat(file);
    if (stats.isDirectory()) return unreadableInput(file, 'EISDIR');
    await access(file, constants.R_OK);
    return stats.isFile() && stats.size === 0 ? emptyInput(file) : undefined;
  } catch (error) {
    return unreadableInput(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}
