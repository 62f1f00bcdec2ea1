/**
 * README's command-line examples, run as a newcomer runs them: in a folder holding only the files
 * git tracks (what a clone has; the PDFs the tests print are not there) plus the built dist/ and
 * node_modules/ (what `npm ci` adds). An example is a line of a ```sh block that starts with
 * `node bin/folio.js ` or `npm run folio -- `; a trailing `# writes a, b` comment names the files it
 * must leave behind. Each must exit 0, so a README that names a moved file, a renamed option or an
 * input only the tests make fails here.
 */

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '..');
const EXAMPLE_PREFIXES = ['node bin/folio.js ', 'npm run folio -- '];

interface Example {
  command: string;
  /** Files the example says it writes, relative to the folder it runs in. */
  writes: string[];
}

/** The examples in a Markdown text, in order. */
function readmeExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    for (const rawLine of (block[1] ?? '').split('\n')) {
      const line = rawLine.trim();
      if (!EXAMPLE_PREFIXES.some((prefix) => line.startsWith(prefix))) continue;
      const hash = line.indexOf(' # ');
      const command = (hash === -1 ? line : line.slice(0, hash)).trim();
      const comment = hash === -1 ? '' : line.slice(hash + 3).trim();
      const writes = comment.startsWith('writes ') ? comment.slice('writes '.length).split(',').map((name) => name.trim()) : [];
      examples.push({ command, writes });
    }
  }
  return examples;
}

function run(command: string, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A folder like a fresh clone after `npm ci`: the tracked files, with dist/ and node_modules/ linked in. */
async function cloneLikeFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'folio-readme-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    const source = path.join(repoRoot, file);
    if (!existsSync(source)) continue; // deleted in the working tree, not yet committed
    await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
    await copyFile(source, path.join(folder, file));
  }
  await symlink(path.join(repoRoot, 'dist'), path.join(folder, 'dist'));
  await symlink(path.join(repoRoot, 'node_modules'), path.join(folder, 'node_modules'));
  return folder;
}

const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
const examples = readmeExamples(readme);

describe('README examples', () => {
  it('finds the examples, and every convert example names what it writes', () => {
    const converts = examples.filter((example) => / convert /.test(example.command));
    expect(converts.length).toBeGreaterThanOrEqual(3);
    for (const example of converts) expect(example.writes, example.command).not.toEqual([]);
  });

  it('reads a command and the files its comment names', () => {
    const parsed = readmeExamples('text\n```sh\nnpm ci   # not an example\n  node bin/folio.js convert a.pdf -o out/   # writes out/a.md, out/b.md\nnpm run folio -- --help\n```\n');
    expect(parsed).toEqual([
      { command: 'node bin/folio.js convert a.pdf -o out/', writes: ['out/a.md', 'out/b.md'] },
      { command: 'npm run folio -- --help', writes: [] },
    ]);
  });
});

describe('README and docs links', () => {
  it('point at files inside the repository that exist, and name no path outside it', async () => {
    const pages = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
    const broken: string[] = [];
    for (const page of pages) {
      const text = await readFile(path.join(repoRoot, page), 'utf8');
      for (const link of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = (link[1] ?? '').split('#')[0] ?? '';
        if (target === '' || /^[a-z]+:/i.test(target)) continue; // an anchor on the page, or a web address
        const resolved = path.resolve(repoRoot, path.dirname(page), target);
        if (path.relative(repoRoot, resolved).startsWith('..') || !existsSync(resolved)) broken.push(`${page}: ${link[1]}`);
      }
      // a path in code spans that leaves the clone (`../shared/...`) is no link but misleads as much
      for (const outside of text.matchAll(/`\.\.\/[^`]*`/g)) broken.push(`${page}: ${outside[0]}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('README examples, run in a fresh clone', () => {
  let folder: string;
  beforeAll(async () => {
    if (!existsSync(path.join(repoRoot, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
    folder = await cloneLikeFolder();
  });
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  for (const example of examples) {
    it(`runs: ${example.command}`, async () => {
      const { code, output } = await run(example.command, folder);
      expect(code, output).toBe(0);
      for (const name of example.writes) {
        const file = path.join(folder, name);
        expect(existsSync(file), `${name} was not written:\n${output}`).toBe(true);
        expect((await stat(file)).size, `${name} is empty`).toBeGreaterThan(0);
      }
    });
  }
});
