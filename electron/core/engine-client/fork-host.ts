/** Starts the engine host with `child_process.fork`, as the CLI and the tests do. */

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { HostEvent } from '../../../shared/protocol.js';
import { exitReport, HOST_HEAP_LIMIT_MB, type HostProcess } from './host-process.js';

/**
 * V8 considers a function for TurboFan after it has run three of these budgets of bytecode (V8's
 * default budget is 67,584 bytes). A forked host mostly runs one command's batch: at the default,
 * V8 compiled hundreds of merely warm functions of the engine and pdf.js on its background threads,
 * as much CPU as the rest of the batch's cold start (docs/text-engine-speed.md). The hot ones (the
 * layout, PDFium's readers, per character) still reach TurboFan within the first pages.
 */
export const HOST_INTERRUPT_BUDGET = 2_000_000;

/** The built host entry (`dist/electron/engine/host.js`), which runs the engines. */
export const HOST_MODULE = fileURLToPath(new URL('../../engine/host.js', import.meta.url));

/**
 * The environment for a host that opens no TLS connection (one that only reads text layers): Node
 * reads and parses NODE_EXTRA_CA_CERTS at every process start, used or not (a system bundle of
 * 225 KB: about 50 ms of CPU, as much as the rest of Node's start), and only TLS uses it.
 */
export function withoutTlsSetup(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_EXTRA_CA_CERTS === undefined) return env;
  const rest = { ...env };
  delete rest.NODE_EXTRA_CA_CERTS;
  return rest;
}

export interface ForkHostOptions {
  /** The script to run; tests pass fake hosts that hang or crash. */
  modulePath?: string;
  env?: NodeJS.ProcessEnv;
}

export function forkHost(options: ForkHostOptions = {}): HostProcess {
  const env = options.env ?? process.env;
  // FOLIO_HOST_CPU_PROF=DIR: the host writes a V8 CPU profile into DIR as it exits (Node refuses --cpu-prof in NODE_OPTIONS).
  const profile = env.FOLIO_HOST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.FOLIO_HOST_CPU_PROF}`] : [];
  const child = fork(options.modulePath ?? HOST_MODULE, [], {
    // Uint8Array image data in page results must arrive as bytes, not as a JSON object of indices.
    serialization: 'advanced',
    // pdf.js can balloon on a hostile page faster than the page time limit runs out; a capped heap
    // turns that into a crash of this host (that page fails) instead of the machine swapping.
    execArgv: [`--max-old-space-size=${HOST_HEAP_LIMIT_MB}`, `--interrupt-budget=${HOST_INTERRUPT_BUDGET}`, ...profile],
    // The host's output must never mix into the caller's stdout (the CLI's --json stream).
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
  });
  const report = exitReport(child.stderr);
  // A host stuck in a hostile page never reads the disconnect, so the caller's exit takes it along;
  // a profiled host is left to exit on the disconnect, so that it writes its profile.
  const killOnExit = () => child.kill('SIGKILL');
  if (profile.length === 0) process.once('exit', killOnExit);
  const ended = (code: number | null, signal: NodeJS.Signals | null) => {
    process.removeListener('exit', killOnExit);
    report.exited(signal ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`);
  };
  // 'close' rather than 'exit': it comes after stderr has drained, so the crash reason is complete.
  child.once('close', ended);
  child.on('error', (error) => report.failed(`could not run ${options.modulePath ?? HOST_MODULE}: ${error.message}`));
  return {
    send: (request) => {
      // A host that died a moment ago is reported through onExit; the failed send adds nothing.
      if (child.connected) child.send(request, () => undefined);
    },
    onEvent: (listener) => child.on('message', (message) => listener(message as HostEvent)),
    onExit: report.onExit,
    kill: () => {
      if (profile.length === 0 || !child.connected) {
        child.kill('SIGKILL');
        return;
      }
      // A profiled host is asked to exit (it does on the disconnect) so that it writes its profile;
      // after a disconnect made here Node emits 'exit' but never 'close'.
      child.once('exit', ended);
      child.disconnect();
    },
  };
}
