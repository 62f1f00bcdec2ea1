// The real engine host (built in dist/) paced to FOLIO_PACE_MS per page, as a vision model would
// be: the text engine converts a simple page in a few milliseconds, too fast for a person (or a
// test) to cancel mid-run. Plain JS so child_process.fork runs it as is.
import { EngineHost } from '../../dist/electron/engine/host-loop.js';
import { connectToParent } from '../../dist/electron/engine/host-transport.js';
import { EngineRouter } from '../../dist/electron/engine/router.js';

const paceMs = Number(process.env.FOLIO_PACE_MS ?? '50');
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const parent = connectToParent();
const transport = {
  ...parent,
  send(event) {
    // sleeps without spinning, so the machine's other work goes on
    if (event.type === 'page-started') Atomics.wait(sleeper, 0, 0, paceMs);
    parent.send(event);
  },
};
const host = new EngineHost(transport, new EngineRouter());
parent.onMessage((message) => host.handle(message));
parent.onDisconnect(() => process.exit(0));
parent.send({ type: 'ready' });
