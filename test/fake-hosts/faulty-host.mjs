// The real engine host (built in dist/) with faults injected at its transport, the way hostile PDFs
// hurt pdf.js: FOLIO_FAKE_HANG_PAGE spins forever once that page starts (with FOLIO_FAKE_HANG_ONCE, a
// marker file's path, only in the first host that reaches it), FOLIO_FAKE_CRASH_PAGE exits
// mid-page, FOLIO_FAKE_HANG_OPEN never answers "open", FOLIO_FAKE_EXIT_WHEN_IDLE exits once a
// conversion is done; FOLIO_FAKE_KILLED_AT_START and FOLIO_FAKE_KILLED_AT_OPEN die by SIGKILL, as an
// OOM kill does, before saying "ready" and on being asked to open a document.
// FOLIO_FAKE_SLOW_PREPARE (ms) holds the host that long once its engine starts preparing (a model
// package opening, as a big package or a slow device's measurement does); FOLIO_FAKE_HANG_PREPARE
// never lets the preparation end. Plain JS so child_process.fork runs it as is.
import { existsSync, writeFileSync } from 'node:fs';
import { EngineHost } from '../../dist/electron/engine/host-loop.js';
import { connectToParent } from '../../dist/electron/engine/host-transport.js';
import { dieWithParent } from '../../dist/electron/engine/parent-watchdog.js';
import { EngineRouter } from '../../dist/electron/engine/router.js';

const hangPage = Number(process.env.FOLIO_FAKE_HANG_PAGE);
const hangOnceMarker = process.env.FOLIO_FAKE_HANG_ONCE;
const crashPage = Number(process.env.FOLIO_FAKE_CRASH_PAGE);
const hangOpen = process.env.FOLIO_FAKE_HANG_OPEN === '1';
const exitWhenIdle = process.env.FOLIO_FAKE_EXIT_WHEN_IDLE === '1';
const killedAtOpen = process.env.FOLIO_FAKE_KILLED_AT_OPEN === '1';
const slowPrepareMs = Number(process.env.FOLIO_FAKE_SLOW_PREPARE ?? 0);
const hangPrepare = process.env.FOLIO_FAKE_HANG_PREPARE === '1';
let prepareHeld = false;

if (process.env.FOLIO_FAKE_KILLED_AT_START === '1') process.kill(process.pid, 'SIGKILL');

dieWithParent();
const parent = connectToParent();
const transport = {
  ...parent,
  send(event) {
    if (event.type === 'page-started' && event.page === hangPage && !(hangOnceMarker && existsSync(hangOnceMarker))) {
      if (hangOnceMarker) writeFileSync(hangOnceMarker, '');
      for (;;);
    }
    if (event.type === 'page-started' && event.page === crashPage) {
      process.stderr.write(`fake crash on page ${crashPage}\n`);
      process.exit(70);
    }
    parent.send(event);
    if (event.type === 'engine-preparing' && !prepareHeld && (slowPrepareMs > 0 || hangPrepare)) {
      prepareHeld = true;
      // after this turn, so the event has left; then the whole host waits, as a busy open does
      setTimeout(() => {
        if (hangPrepare) for (;;);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, slowPrepareMs);
      }, 0);
    }
    // Give the IPC message time to leave before the process goes, as a host killed between documents would.
    if (event.type === 'convert-done' && exitWhenIdle) setTimeout(() => process.exit(0), 100);
  },
};
const host = new EngineHost(transport, new EngineRouter());
parent.onMessage((message) => {
  if (hangOpen && message?.type === 'open') return;
  if (killedAtOpen && message?.type === 'open') process.kill(process.pid, 'SIGKILL');
  host.handle(message);
});
parent.onDisconnect(() => process.exit(0));
parent.send({ type: 'ready' });
