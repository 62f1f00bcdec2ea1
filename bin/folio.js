#!/usr/bin/env node
// Launcher for the built CLI: the TypeScript sources compile to dist/ (npm run build, also run by npm ci).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/electron/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('folio: the CLI is not built yet; run "npm run build" in the Folio folder first.\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
