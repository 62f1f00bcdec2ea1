/**
 * `npm run bench:quality [-- --engine E]`: Folio's own benchmark set (test/bench-set/, olmOCR-Bench
 * format) built from its sources, then scored by `folio bench`'s scorer: its one part, tuned on
 * (what is held out is the real-document benchmark's, `npm run bench:real`). Default engine: text.
 */

import path from 'node:path';
import { parseCommandLine, UsageError } from '../../electron/cli/cli-args.js';
import { runBench } from '../../electron/cli/bench-command.js';
import { BENCH_SET_DIR, BENCH_SET_PARTS, buildBenchSet } from './bench-set-build.js';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const made = await buildBenchSet();
  if (made.length) console.log(`built ${made.length} PDF(s) of the benchmark set\n`);
  for (const part of BENCH_SET_PARTS) {
    const dir = path.join(BENCH_SET_DIR, part);
    const command = await parseCommandLine(['bench', dir, ...(args.some((a) => a.startsWith('--engine')) ? args : ['--engine', 'text', ...args])]);
    if (command.kind !== 'bench') throw new UsageError('bench:quality takes folio bench options only, e.g. -- --engine auto');
    console.log(`== ${part} (${path.relative(process.cwd(), dir)}) ==`);
    const code = await runBench(command.request, { stdout: process.stdout, stderr: process.stderr, signal: new AbortController().signal });
    if (code !== 0) process.exitCode = code;
    console.log('');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
