/**
 * Why an input file cannot be converted whatever its content: the same words whether the CLI finds
 * it before an engine host starts or the engine host finds it when it opens the file.
 */

import { failure, type Failure } from './failure.js';

/** `code`: the file system's error code (ENOENT, EISDIR, EACCES...). */
export function unreadableInput(file: string, code: string): Failure {
  if (code === 'ENOENT') return failure('not-found', `${file}: no such file.`);
  if (code === 'EISDIR') return failure('not-pdf', `${file}: is a folder, not a PDF.`);
  return failure('io', `${file}: cannot be read (${code}).`);
}

export function emptyInput(file: string): Failure {
  return failure('not-pdf', `${file}: the file is empty.`);
}
