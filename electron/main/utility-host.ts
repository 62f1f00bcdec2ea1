/** Starts the engine host as an Electron utility process: a Node child that Electron manages and ends with the app. */

import { utilityProcess } from 'electron';
import type { HostEvent } from '../../shared/protocol.js';
import { HOST_MODULE } from '../core/engine-client/fork-host.js';
import { HOST_HEAP_LIMIT_MB, STDERR_TAIL_CHARS, type HostProcess } from '../core/engine-client/host-process.js';

/** `env` is added to main's environment, e.g. the remote engine's API key, which the host reads from FOLIO_API_KEY. */
export function spawnUtilityHost(env: Record<string, string> = {}): HostProcess {
  const child = utilityProcess.fork(HOST_MODULE, [], {
    serviceName: 'Folio engine',
    env: { ...process.env, ...env },
    execArgv: [`--max-old-space-size=${HOST_HEAP_LIMIT_MB}`],
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderrTail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const exitListeners: ((description: string) => void)[] = [];
  let exitDescription: string | undefined;
  let alive = true;
  child.once('exit', (code) => {
    alive = false;
    const lastLine = stderrTail.trim().split('\n').at(-1);
    exitDescription = lastLine ? `exit code ${code}: ${lastLine}` : `exit code ${code}`;
    for (const listener of exitListeners) listener(exitDescription);
  });
  return {
    send: (request) => {
      if (alive) child.postMessage(request);
    },
    onEvent: (listener) => child.on('message', (message: HostEvent) => listener(message)),
    onExit: (listener) => {
      if (exitDescription !== undefined) listener(exitDescription);
      else exitListeners.push(listener);
    },
    kill: () => {
      if (alive) child.kill();
    },
  };
}
