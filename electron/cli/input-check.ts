/**
 * Inputs that cannot be converted whatever the engine (missing, a folder, a device or FIFO, larger
 * than Folio opens, unreadable, empty), found
 * with one stat before an engine host starts: a typo fails in milliseconds, not after a host start.
 */

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { failure, type Failure } from '../../shared/failure.js';
import { emptyInput, unreadableInput } from '../../shared/input-failure.js';
import { MAX_DOCUMENT_BYTES, unfitFile } from '../core/bounded-file.js';

/** Why `file` cannot be opened at all, or undefined when the engine host should look inside it. */
export async function inputFailure(file: string): Promise<Failure | undefined> {
  try {
    const stats = await stat(file);
    if (stats.isDirectory()) return unreadableInput(file, 'EISDIR');
    const unfit = unfitFile(file, stats, MAX_DOCUMENT_BYTES, 'document');
    if (unfit) return failure('not-pdf', unfit.message);
    await access(file, constants.R_OK);
    return stats.isFile() && stats.size === 0 ? emptyInput(file) : undefined;
  } catch (error) {
    return unreadableInput(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}
