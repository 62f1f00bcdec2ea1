import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainPdf } from '../../test/hand-built-pdf.js';

const root = path.resolve(import.meta.dirname, '../..');
const hungHostParent = path.join(root, 'test/fake-hosts/hung-host-parent.mjs');

let folder: string;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/engine/parent-watchdog.js'))) throw new Error('The engine is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-watchdog-'));
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Running, as opposed to gone or a zombie waiting for a parent that may never reap it. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitUntil(condition: () => boolean, boundMs: number): Promise<boolean> {
  const giveUp = Date.now() + boundMs;
  while (!condition()) {
    if (Date.now() > giveUp) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

describe('engine host parent watchdog', () => {
  it('ends a host whose main thread is stuck in a page when its parent is killed with SIGKILL', async () => {
    const file = path.join(folder, 'two-pages.pdf');
    await writeFile(file, plainPdf(['BT /F1 24 Tf 72 700 Td (First page) Tj ET', 'BT /F1 24 Tf 72 700 Td (Second page) Tj ET']));
    const parent = spawn(process.execPath, [hungHostParent, file], { stdio: ['ignore', 'pipe', 'inherit'] });
    const hostPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.setEncoding('utf8').on('data', (text: string) => resolve(Number(text.trim())));
      parent.on('exit', () => reject(new Error('the parent ended before its host converted page 1')));
    });
    try {
      expect(running(hostPid)).toBe(true);
      parent.kill('SIGKILL');
      // the host spins forever unless its watchdog ends it; the bound only keeps a failing test finite
      expect(await waitUntil(() => !running(hostPid), 30_000)).toBe(true);
    } finally {
      if (running(hostPid)) process.kill(hostPid, 'SIGKILL');
    }
  });
});
