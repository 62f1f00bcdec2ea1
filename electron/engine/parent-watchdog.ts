/**
 * Ends the engine host when the process that started it is gone. The host exits on its own when the
 * IPC channel closes, but only once its main thread reads that: a hostile page can hold the thread
 * in a synchronous loop for as long as its time limit runs, and after a SIGKILL of the CLI nobody is
 * left to enforce that limit. A worker thread keeps watching meanwhile: an orphan is adopted by
 * another process, so a changed parent pid means the parent died.
 */

import { Worker } from 'node:worker_threads';

/** How soon an orphaned host notices; one getppid() per tick costs nothing measurable. */
const POLL_MS = 250;

// Evaluated source rather than a module file: a worker cannot load its script from inside the
// packaged app's asar archive. SIGKILL, since process.exit in a worker ends only the worker.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setInterval(() => {
  if (process.ppid !== workerData.parentPid) process.kill(process.pid, 'SIGKILL');
}, workerData.pollMs);
`;

export function dieWithParent(): void {
  let worker: Worker;
  try {
    worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { parentPid: process.ppid, pollMs: POLL_MS } });
  } catch (error) {
    // a host without its watchdog still converts, and still exits on the channel closing when idle
    process.stderr.write(`folio engine host: no parent watchdog (${error instanceof Error ? error.message : String(error)})\n`);
    return;
  }
  // the watchdog never keeps the host alive by itself
  worker.unref();
}
