// The real engine host (built in dist/) paced like a vision model: FOLIO_PACE_MS before each page,
// and with FOLIO_STREAM_CHUNK set, each page's text sent in pieces of that many characters,
// FOLIO_STREAM_MS apart; with FOLIO_PREPARE_MS, the host held that long once a model begins to
// open, as a big package's open is. The text engine converts a simple page in a few milliseconds, in one piece:
// too fast for a person (or a test) to cancel mid-run or watch it stream. Plain JS so
// child_process.fork runs it as is.
import { EngineHost } from '../../dist/electron/engine/host-loop.js';
import { connectToParent } from '../../dist/electron/engine/host-transport.js';
import { EngineRouter } from '../../dist/electron/engine/router.js';

const paceMs = Number(process.env.FOLIO_PACE_MS ?? '50');
const chunk = Number(process.env.FOLIO_STREAM_CHUNK ?? '0');
const streamMs = Number(process.env.FOLIO_STREAM_MS ?? '50');
let prepareMs = Number(process.env.FOLIO_PREPARE_MS ?? '0');
const sleeper = new Int32Array(new SharedArrayBuffer(4));
// sleeps without spinning, so the machine's other work goes on
const sleep = (ms) => Atomics.wait(sleeper, 0, 0, ms);

const parent = connectToParent();
const transport = {
  ...parent,
  send(event) {
    if (event.type === 'page-started') sleep(paceMs);
    if (event.type === 'page-delta' && chunk > 0) {
      for (let start = 0; start < event.text.length; start += chunk) {
        parent.send({ ...event, text: event.text.slice(start, start + chunk) });
        sleep(streamMs);
      }
      return;
    }
    parent.send(event);
    if (event.type === 'engine-preparing' && prepareMs > 0) {
      const held = prepareMs;
      prepareMs = 0;
      // after this turn, so the event has left first
      setTimeout(() => sleep(held), 0);
    }
  },
};
const host = new EngineHost(transport, new EngineRouter());
parent.onMessage((message) => host.handle(message));
parent.onDisconnect(() => process.exit(0));
parent.send({ type: 'ready' });
