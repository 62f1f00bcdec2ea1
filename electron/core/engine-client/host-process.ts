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
