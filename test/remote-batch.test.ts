import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type SeenRequest, type TestServer } from '../tools/bench/openai-test-server.js';
import { renderedWidth, writeWidthCodedPdf } from './remote-pages.js';
import { runFolio } from './folio-process.js';

const root = path.resolve(import.meta.dirname, '..');
const LONG_SIDE = 300;
const CONCURRENCY = 3;
const PAGES_PER_FILE = 2;

let folder: string;
let server: TestServer | undefined;
/** The batch in input order: PDFs of two pages each (two with the same name in different folders) and one file that is no PDF. */
let inputs: string[];
/** The document each PDF's pages are coded for, by input; undefined for the file that is no PDF. */
const documentOfCode = new Map<number, number>();

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dist/electron/cli/main.js'))) throw new Error('The CLI is not built; run "npm run build" before these tests.');
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-remote-batch-'));
  const names = ['a.pdf', 'b.pdf', 'broken.pdf', 'c.pdf', 'x/same.pdf', 'y/same.pdf'];
  inputs = names.map((name) => path.join(folder, 'in', name));
  let code = 1;
  for (const [index, file] of inputs.entries()) {
    await mkdir(path.dirname(file), { recursive: true });
    if (file.endsWith('broken.pdf')) {
      await writeFile(file, 'not a PDF at all\n');
      continue;
    }
    await writeWidthCodedPdf(file, PAGES_PER_FILE, code);
    for (let page = 0; page < PAGES_PER_FILE; page++) documentOfCode.set(code++, index);
  }
});

afterEach(async () => {
  await server?.close();
  server = undefined;
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});


function codeOf(request: SeenRequest): number {
  for (const code of documentOfCode.keys()) if (renderedWidth(code, LONG_SIDE) === request.width) return code;
  return -1;
}

interface Event {
  event: string;
  file?: string;
  page?: number;
  outputs?: string[];
}

function events(stdout: string): Event[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
}

/** Each event less what varies from run to run (timings), to compare a batch with one-file runs. */
function shape(event: Event): string {
  return [event.event, event.file, event.page].filter((part) => part !== undefined).join(' ');
}

/** The outputs' text, less each page's conversion time. */
async function contents(outputs: readonly string[] = []): Promise<string[]> {
  return Promise.all(outputs.map(async (output) => (await readFile(output, 'utf8')).replace(/"timeMs": \d+/g, '"timeMs"')));
}

describe('folio convert of several documents through a remote server', () => {
  it('keeps the server busy across documents, never past --concurrency, and reports and writes as one document at a time would', async () => {
    // which documents had requests in flight whenever the server started answering one
    const overlaps: Set<number>[] = [];
    server = await startTestServer({
      answer: (request) => {
        const open = server!.stats.seen.filter((seen) => !server!.stats.completed.includes(seen));
        overlaps.push(new Set(open.map((seen) => documentOfCode.get(codeOf(seen))!)));
        return `## Code ${codeOf(request)}\n\nText coded ${codeOf(request)}.\n`;
      },
      firstTokenDelayMs: () => 300,
    });
    const args = ['--server', server.url, '--model', 'test-ocr', '--image-size', String(LONG_SIDE), '--concurrency', String(CONCURRENCY), '--format', 'md,json', '--json'];
    const batch = await runFolio(['convert', ...inputs, '-o', path.join(folder, 'out-batch'), ...args]);

    expect(batch.code).toBe(1);
    expect(batch.stderr).toContain('broken.pdf');
    // two-page documents fill three request slots only when two documents are in flight at once
    expect(server.stats.maxInFlight).toBe(CONCURRENCY);
    expect(overlaps.some((documents) => documents.size > 1)).toBe(true);
    expect(server.stats.requests).toBe(documentOfCode.size);

    const batchEvents = events(batch.stdout);
    const perFile: Event[][] = [];
    for (const [index, file] of inputs.entries()) {
      const alone = await runFolio(['convert', file, '-o', path.join(folder, `out-alone-${index}`), ...args]);
      expect(alone.code, file).toBe(file.endsWith('broken.pdf') ? 1 : 0);
      perFile.push(events(alone.stdout).filter((event) => event.event !== 'summary'));
    }
    // the batch's events are the one-file runs' events, one document after another in input order
    expect(batchEvents.filter((event) => event.event !== 'summary').map(shape)).toEqual(perFile.flat().map(shape));
    expect(batchEvents.at(-1)).toMatchObject({ event: 'summary', files: inputs.length, filesFailed: 1, pagesDone: documentOfCode.size, pagesFailed: 0 });

    const batchDone = batchEvents.filter((event) => event.event === 'document-done');
    const aloneDone = perFile.flat().filter((event) => event.event === 'document-done');
    expect(batchDone.map((event) => event.file)).toEqual(aloneDone.map((event) => event.file));
    for (const [index, done] of batchDone.entries()) expect(await contents(done.outputs)).toEqual(await contents(aloneDone[index]!.outputs));
    // the first of two inputs with one name keeps the plain name, as in a run one document at a time
    expect(batchDone.at(-2)!.outputs!.map((output) => path.basename(output))).toEqual(['same.md', 'same.json']);
    const markdown = await readFile(batchDone[0]!.outputs![0]!, 'utf8');
    expect([...markdown.matchAll(/## Code (\d+)/g)].map((match) => Number(match[1]))).toEqual([1, 2]);
  });
});
