/**
 * The command line end to end, as a user meets it: `folio convert` (Node, the engine host, the
 * parsers loading) against a shell loop of `pdftotext`, each timed by bash's `time` (wall, and CPU
 * of the process and its children), least of `rounds`.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './bench-set.js';

const run = promisify(execFile);
const FOLIO = path.join(REPO_ROOT, 'bin/folio.js');

export interface CommandTime {
  wallMs: number;
  cpuMs: number;
}

/** One `folio convert` of all `files` (--engine text, Markdown into a scratch folder). */
export function folioCommand(files: readonly string[], rounds: number): Promise<CommandTime> {
  return leastOf(rounds, async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-cli-'));
    try {
      return await timed(`node "$0" convert --engine text -o "${out}" "$@" > /dev/null 2>&1`, [FOLIO, ...files]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
}

/** `pdftotext -layout` over `files`, one process each, from one shell loop. */
export function pdftotextLoop(files: readonly string[], rounds: number): Promise<CommandTime> {
  return leastOf(rounds, () => timed('for f in "$@"; do pdftotext -layout -q "$f" - > /dev/null; done', ['bash', ...files]));
}

async function timed(command: string, args: readonly string[]): Promise<CommandTime> {
  const script = `TIMEFORMAT="%3R %3U %3S"; time { ${command}; }`;
  const { stderr } = await run('bash', ['-c', script, ...args], { maxBuffer: 16 * 1024 * 1024 });
  const [wall, user, system] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
  if (![wall, user, system].every(Number.isFinite)) throw new Error(`bash's time printed no times (${stderr.trim().slice(-300)}).`);
  return { wallMs: wall! * 1000, cpuMs: (user! + system!) * 1000 };
}

async function leastOf(rounds: number, measure: () => Promise<CommandTime>): Promise<CommandTime> {
  let best: CommandTime | undefined;
  for (let round = 0; round < rounds; round++) {
    const t = await measure();
    best = best && best.wallMs <= t.wallMs ? best : t;
  }
  return best!;
}
