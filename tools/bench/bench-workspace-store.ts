/**
 * `node dist/tools/bench/bench-workspace-store.js`: what saving costs the app's main process on a
 * long document. Side by side in one run, on a 2,000-page document of realistic page results:
 * the workspace store saving an edit (document file only; results live in their own files) against
 * writing the whole document with its results as one JSON file, the way a single-file store would
 * on every edit. Prints times and their ratio; asserts nothing.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PageResult } from '../../shared/page.js';
import type { WorkspaceDocument } from '../../shared/workspace.js';
import { writeFileAtomic } from '../../electron/core/output/atomic-write.js';
import { WorkspaceStore } from '../../electron/core/workspace-store.js';

const PAGES = 2000;
const ROUNDS = 20;

/** A page of prose and a small table, with a block per paragraph: about what the text engine returns. */
function pageResult(page: number): PageResult {
  const paragraph = `Paragraph text of page ${page}, long enough to stand for a real one in a report or a paper. `.repeat(6);
  const blocks = Array.from({ length: 8 }, (_, index) => ({ kind: 'paragraph' as const, bbox: [72, 72 + index * 60, 540, 120 + index * 60] as const, markdown: paragraph }));
  const markdown = blocks.map((block) => block.markdown).join('\n\n');
  return { page, width: 612, height: 792, markdown, blocks, images: [], stats: { engine: 'text', device: 'cpu', timeMs: 20, chars: markdown.length } };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-store-'));
  try {
    const store = await WorkspaceStore.open(path.join(dir, 'store'));
    const document: WorkspaceDocument = { id: 'long', path: '/long.pdf', name: 'long.pdf', kind: 'pdf', addedAt: '', pages: [], converting: false };
    await store.apply({ type: 'document-added', document }).saved;
    await store.apply({ type: 'document-opened', docId: 'long', info: { pageCount: PAGES } }).saved;
    const done: Promise<void>[] = [];
    for (let page = 1; page <= PAGES; page++) {
      store.apply({ type: 'page-started', docId: 'long', page });
      done.push(store.apply({ type: 'page-done', docId: 'long', result: pageResult(page) }).saved);
    }
    await Promise.all(done);
    const whole = store.workspace.documents[0]!;
    console.log(`${PAGES}-page document, ${(JSON.stringify(whole).length / 1e6).toFixed(1)} MB as one JSON; ${ROUNDS} saves each\n`);

    const storeMs = await time(async (round) => {
      await store.apply({ type: 'page-edited', docId: 'long', page: 1 + ((round + PAGES) % PAGES), markdown: `edit ${round}` }).saved;
    });
    const singleFileMs = await time(async () => {
      await writeFileAtomic(path.join(dir, 'single.json'), JSON.stringify(store.workspace.documents[0]));
    });
    console.log(`store, save an edit:           ${storeMs.toFixed(1)} ms`);
    console.log(`one JSON per document, a save: ${singleFileMs.toFixed(1)} ms`);
    console.log(`ratio: ${(singleFileMs / storeMs).toFixed(1)}x less time per edit in the store`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Median of ROUNDS runs, after one untimed warm-up. */
async function time(run: (round: number) => Promise<void>): Promise<number> {
  await run(-1);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await run(round);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

await main();
