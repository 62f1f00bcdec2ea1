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
