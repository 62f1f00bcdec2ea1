/** `folio convert` run in this process, with the engine host and the file writes a test injects. */

import { PassThrough } from 'node:stream';
import { parseCommandLine } from '../electron/cli/cli-args.js';
import { runConvert, type ConvertIo } from '../electron/cli/convert-command.js';

/** The exit status and everything written to stderr; stdout is dropped. */
export async function convertInProcess(argv: readonly string[], io: Pick<ConvertIo, 'spawnHost' | 'write'>): Promise<{ code: number; stderr: string }> {
  const command = await parseCommandLine(['convert', ...argv]);
  if (command.kind !== 'convert') throw new Error('expected a convert command');
  let stderr = '';
  const err = new PassThrough().setEncoding('utf8');
  err.on('data', (chunk: string) => (stderr += chunk));
  const code = await runConvert(command.request, { ...io, stdout: new PassThrough().resume(), stderr: err, signal: new AbortController().signal });
  return { code, stderr };
}
