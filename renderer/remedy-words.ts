/** What to do about a failure, in the app's words: its fields and settings, never the CLI's flags. */

import type { Remedy } from '../shared/failure.js';

export const APP_REMEDY_WORDS: Readonly<Record<Remedy, string>> = {
  password: 'enter its password',
  'model-package': 'choose a model package folder in Settings',
  'remote-server': 'set its address and model under Settings → Remote server',
  'remote-time': 'raise the request time limit or lower the pages in flight under Settings → Remote server',
  'text-engine': 'its text layer, if it has one, reads with the Text engine',
  device: 'choose CPU or Automatic as the Device in Settings',
  'plain-decoding': 'set Speculation to 0 (plain greedy) in Settings',
};
