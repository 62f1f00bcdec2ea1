/**
 * The engine host's channel to whoever started it. Under `child_process.fork` (CLI, tests) messages
 * travel over Node's IPC; under Electron's `utilityProcess.fork` they arrive on `process.parentPort`
 * wrapped in `{ data }` envelopes. The host loop sees only this interface.
 */

import type { HostEvent } from '../../shared/protocol.js';

export interface HostTransport {
  send(event: HostEvent): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once the parent is gone, so the host can exit instead of lingering. */
  onDisconnect(listener: () => void): void;
}

/** The slice of Electron's `ParentPort` the host uses, typed here so nothing imports `electron`. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (envelope: { data: unknown }) => void): void;
}

export function connectToParent(): HostTransport {
  const parentPort = (process as { parentPort?: ParentPort }).parentPort;
  if (parentPort) return parentPortTransport(parentPort);
  if (process.send) return nodeIpcTransport();
  throw new Error('The engine host must be started by child_process.fork or utilityProcess.fork; it has no channel to its parent.');
}

function parentPortTransport(port: ParentPort): HostTransport {
  return {
    send: (event) => port.postMessage(event),
    onMessage: (listener) => port.on('message', (envelope) => listener(envelope.data)),
    // A utility process is ended by its parent; Electron does not signal the port closing.
    onDisconnect: () => undefined,
  };
}

function nodeIpcTransport(): HostTransport {
  return {
    send: (event) => {
      if (process.connected) process.send?.(event);
    },
    onMessage: (listener) => process.on('message', listener),
    onDisconnect: (listener) => process.on('disconnect', listener),
  };
}
