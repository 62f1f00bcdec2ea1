/** The `folio` command: parses the command line and runs it; bin/folio.js calls `main`. */

import { readFile } from 'node:fs/promises';
import { HELP_TEXT } from './help-text.js';
import { UsageError, parseCommandLine, type CliCommand } from './cli-args.js';
import { terminalSafe } from './terminal-text.js';

// Each command's module is loaded when it runs: `folio convert` need not load the benchmark's
// scorer or the serve check, and a usage error answers before anything heavy is loaded.

export async function main(argv: readonly string[]): Promise<number> {
  exitQuietlyWhenStdoutCloses();
  let command: CliCommand;
  try {
    command = await parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`folio: ${terminalSafe(error.message)}\n`);
    return 2;
  }
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return 0;
    case 'version':
      process.stdout.write(`${await packageVersion()}\n`);
      return 0;
    case 'doctor':
      return (await import('./doctor-command.js')).runDoctor(process.stdout);
    case 'convert':
      return (await import('./convert-command.js')).runConvert(command.request, { stdout: process.stdout, stderr: process.stderr, signal: interruptSignal() });
    case 'bench':
      return (await import('./bench-command.js')).runBench(command.request, { stdout: process.stdout, stderr: process.stderr, signal: interruptSignal() });
    case 'export-pairs':
      return (await import('./export-pairs-command.js')).runExportPairs(command.request, { stdout: process.stdout, stderr: process.stderr, signal: interruptSignal() });
    case 'model':
      return (await import('./model-command.js')).runModelCommand(command.request, { stdout: process.stdout, stderr: process.stderr, signal: interruptSignal('stopping the download; what arrived is kept') });
    case 'export-model':
      return (await import('./export-model-command.js')).runExportModel(command.request, { stdout: process.stdout, stderr: process.stderr, signal: interruptSignal() });
    case 'serve-check':
      return (await import('./serve-check-command.js')).runServeCheck(command.request, { stdout: process.stdout, stderr: process.stderr, apiKey: process.env.FOLIO_API_KEY });
  }
}

/** Ctrl-C stops after the page in flight and writes nothing half-done; a second Ctrl-C quits at once. */
function interruptSignal(stopping = 'stopping after the current page'): AbortSignal {
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\nfolio: interrupted; ${stopping} (Ctrl-C again to quit now).\n`);
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  return controller.signal;
}

/** `folio convert ... --json | head` closes our stdout early; that ends the run like SIGPIPE would, without a stack trace. */
function exitQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(141);
  });
}

async function packageVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

