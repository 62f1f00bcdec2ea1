import { afterEach, describe, expect, it } from 'vitest';
import { connectToParent } from './host-transport.js';

type Listener = (envelope: { data: unknown }) => void;

/** Stands in for Electron's `process.parentPort` in a utility process. */
function fakeParentPort() {
  const posted: unknown[] = [];
  const listeners: Listener[] = [];
  return {
    posted,
    deliver: (data: unknown) => listeners.forEach((listener) => listener({ data })),
    port: {
      postMessage: (message: unknown) => posted.push(message),
      on: (_event: 'message', listener: Listener) => listeners.push(listener),
    },
  };
}

const withPort = process as { parentPort?: unknown };

afterEach(() => {
  delete withPort.parentPort;
});

describe('host transport', () => {
  it('under utilityProcess, unwraps { data } envelopes and posts events on the parent port', () => {
    const parent = fakeParentPort();
    withPort.parentPort = parent.port;
    const transport = connectToParent();
    const received: unknown[] = [];
    transport.onMessage((message) => received.push(message));
    parent.deliver({ type: 'cancel', docId: 'd1' });
    transport.send({ type: 'ready' });
    expect(received).toEqual([{ type: 'cancel', docId: 'd1' }]);
    expect(parent.posted).toEqual([{ type: 'ready' }]);
  });
});
