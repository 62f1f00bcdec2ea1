/** What to do about a failure, in the command line's words: its flags. */

import { failureText, type Failure, type Remedy } from '../../shared/failure.js';

export const CLI_REMEDY_WORDS: Readonly<Record<Remedy, string>> = {
  password: 'give its password with --password',
  'model-package': 'give its folder with --model <dir>',
  'remote-server': 'give --server <url> and --model <name>',
  'remote-time': 'raise --timeout or lower --concurrency',
  'text-engine': 'its text layer, if it has one, reads with --engine text',
  device: 'use --device cpu or auto',
  'plain-decoding': 'use --spec-k 0',
};

/** The failure as the CLI prints and writes it: the remedy in its message, worded with the CLI's flags. */
export function inCliWords<T extends Pick<Failure, 'message' | 'remedy'>>(failure: T): Omit<T, 'remedy'> {
  const { remedy, ...rest } = failure;
  return { ...rest, message: failureText({ message: failure.message, remedy }, CLI_REMEDY_WORDS) };
}
