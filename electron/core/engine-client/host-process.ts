/**
 * What the supervisor needs from a running engine host, whichever way it was started:
 * `child_process.fork` (see fork-host.ts) or, in the desktop app, Electron's `utilityProcess.fork`.
 */

import type { HostEvent, HostRequest } from '../../../shared/protocol.js';

export interface HostProcess {
  send(request: HostRequest): void;
  onEvent(listener: (event: HostEvent) => void): void;
  /** Called once when the process ends; `description` says how ("exit code 3", "signal SIGSEGV"). */
  onExit(listener: (description: string) => void): void;
  kill(): void;
}

export type SpawnHost = () => HostProcess;

/** Enough of the host's stderr to explain a crash without holding a hostile file's warnings forever. */
export const STDERR_TAIL_CHARS = 2000;

/** pdf.js can balloon on a hostile page faster than a page time limit runs out: capped, it crashes the host, not the machine. */
export const HOST_HEAP_LIMIT_MB = 4096;

/** How a host process ended, told once to every listener, whether it listens before or after. */
export interface ExitReport {
  /** The process ended `how` ("exit code 3", "signal SIGSEGV"); the last line of its stderr is added. */
  exited(how: string): void;
  /** It could not run at all: `description` as it is. */
  failed(description: string): void;
  onExit: HostProcess['onExit'];
}

/** Keeps the tail of the host's stderr (STDERR_TAIL_CHARS), which says why a crashed host ended. */
export function exitReport(stderr: NodeJS.ReadableStream | null | undefined): ExitReport {
  let tail = '';
  stderr?.setEncoding('utf8');
  stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const listeners: ((description: string) => void)[] = [];
  let told: string | undefined;
  const tell = (description: string) => {
    if (told !== undefined) return;
    told = description;
    for (const listener of listeners) listener(description);
  };
  return {
    exited: (how) => {
      const lastLine = tail.trim().split('\n').at(-1);
      tell(lastLine ? `${how}: ${lastLine}` : how);
    },
    failed: tell,
    onExit: (listener) => {
      if (told !== undefined) listener(told);
      else listeners.push(listener);
    },
  };
}
