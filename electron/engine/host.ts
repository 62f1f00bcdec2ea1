/**
 * Entry point of the engine host process. Plain Node: started by `child_process.fork` from the CLI
 * and tests, and by Electron's `utilityProcess.fork` from the desktop app.
 */

import { loadPdfium } from './pdf/pdfium-text.js';

// PDFium's WebAssembly compiles on V8's background threads while the engine's modules load: the
// first page read no longer waits for it. A failure here is met again, and reported, where a page is read.
loadPdfium().catch(() => undefined);

const [{ EngineHost }, { connectToParent }, { dieWithParent }, { EngineRouter }] = await Promise.all([
  import('./host-loop.js'),
  import('./host-transport.js'),
  import('./parent-watchdog.js'),
  import('./router.js'),
]);

dieWithParent();

const transport = connectToParent();
const host = new EngineHost(transport, new EngineRouter({ remoteApiKey: process.env.FOLIO_API_KEY }));
transport.onMessage((message) => host.handle(message));
transport.onDisconnect(() => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group; the supervisor decides how the host stops.
process.on('SIGINT', () => undefined);
transport.send({ type: 'ready' });
