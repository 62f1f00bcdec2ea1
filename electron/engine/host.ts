/**
 * Entry point of the engine host process. Plain Node: started by `child_process.fork` from the CLI
 * and tests, and by Electron's `utilityProcess.fork` from the desktop app.
 */

import { EngineHost } from './host-loop.js';
import { connectToParent } from './host-transport.js';
import { dieWithParent } from './parent-watchdog.js';
import { EngineRouter } from './router.js';

dieWithParent();

const transport = connectToParent();
const host = new EngineHost(transport, new EngineRouter({ remoteApiKey: process.env.FOLIO_API_KEY }));
transport.onMessage((message) => host.handle(message));
transport.onDisconnect(() => process.exit(0));
// Ctrl-C in a terminal reaches the whole process group; the supervisor decides how the host stops.
process.on('SIGINT', () => undefined);
transport.send({ type: 'ready' });
