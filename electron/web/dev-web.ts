/**
 * `npm run dev:web`: the app in a normal browser. Starts the bridge (the same app service and a
 * real engine host as Electron main) on 127.0.0.1 and prints the URL with its token.
 * Options: --data <folder> (default: the user's Folio data folder for the browser mode),
 * --export <folder>, --port <n>, --model-folder <folder> (what Settings' Choose… answers, as a
 * browser has no folder picker; a path can be typed too).
 */

import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startBridge } from './bridge-server.js';

const { values } = parseArgs({
  options: { data: { type: 'string' }, export: { type: 'string' }, port: { type: 'string' }, 'model-folder': { type: 'string' } },
});

const dataDir = path.resolve(values.data ?? path.join(os.homedir(), '.folio-web'));
const bridge = await startBridge({
  dataDir,
  exportDir: values.export === undefined ? undefined : path.resolve(values.export),
  port: values.port === undefined ? 0 : Number(values.port),
  modelFolder: values['model-folder'] === undefined ? undefined : path.resolve(values['model-folder']),
});
console.log(`Folio (browser mode) is at ${bridge.url}`);
console.log(`Workspace: ${dataDir}; exports go to ${bridge.exportDir}. Ctrl+C stops it.`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  bridge.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`Folio: the bridge did not close cleanly: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
