/**
 * The test server in a process of its own, so a benchmark measures Folio's CPU without the server's.
 * Config comes as JSON in argv[2]; the parent gets `{ url }` once listening, then `{ stats }` for each
 * 'stats' message it sends.
 */

import { startTestServer, type TestServerConfig } from './openai-test-server.js';

const config = JSON.parse(process.argv[2] ?? '{}') as Pick<TestServerConfig, 'tokenDelayMs' | 'tokensPerAnswer' | 'models'>;
const server = await startTestServer(config);
process.on('message', (message) => {
  if (message === 'stats') process.send?.({ stats: { ...server.stats, seen: [], completed: [] } });
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
process.send?.({ url: server.url });
