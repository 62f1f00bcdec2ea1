/** Starts the engine host as an Electron utility process: a Node child that Electron manages and ends with the app. */

import { utilityProcess } from 'electron';
import type { HostEvent } from '../../shared/protocol.js';
import { HOST_MODULE } from '../core/engine-client/fork-host.js';
import { exitReport, HOST_HEAP_LIMIT_MB, type HostProcess } from '../core/engine-client/host-process.js';

/** `env` is added to main's environment, e.g. the remote engine's API key, which the host reads from FOLIO_API_KEY. */
export function spawnUtilityHost(env: Record<string, string> = {}): HostProcess {
  const child = utilityProcess.fork(HOST_MODULE, [], {
    serviceName: 'Folio engine',
    env: { ...process.env, ...env },
    execArgv: [`--max-old-space-size=${HOST_HEAP_LIMIT_MB}`],
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const report = exitReport(child.stderr);
  let alive = true;
  child.once('exit', (code) => {
    alive = false;
    report.exited(`exit code ${code}`);
  });
  return {
    send: (request) => {
      if (alive) child.postMessage(request);
    },
    onEvent: (listener) => child.on('message', (message: HostEvent) => listener(message)),
    onExit: report.onExit,
    kill: () => {
      if (alive) child.kill();
    },
  };
}
