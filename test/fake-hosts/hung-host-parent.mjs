// A stand-in for the CLI whose engine host gets stuck: it forks the faulty host, has it convert the
// PDF named on the command line with page 2 spinning forever, and prints the host's pid once page 1
// is done (the host's main thread is in its loop from then on). The test then SIGKILLs this process.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONVERT_OPTIONS } from '../../dist/shared/protocol.js';

const host = fork(fileURLToPath(new URL('./faulty-host.mjs', import.meta.url)), [], {
  serialization: 'advanced',
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  env: { ...process.env, FOLIO_FAKE_HANG_PAGE: '2' },
});
host.on('message', (event) => {
  if (event.type === 'ready') host.send({ type: 'open', docId: 'd', path: process.argv[2] });
  if (event.type === 'opened') host.send({ type: 'convert', docId: 'd', pages: [1, 2], options: DEFAULT_CONVERT_OPTIONS });
  if (event.type === 'page-done') process.stdout.write(`${host.pid}\n`);
});
