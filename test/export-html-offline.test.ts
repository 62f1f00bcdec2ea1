/**
 * An exported HTML file with math must render on its own: KaTeX fonts from the file itself,
 * images from beside it, nothing from any network.
 */

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMathCss } from '../electron/core/output/math-css.js';
import { documentHtml } from '../shared/export/html.js';
import { documentMarkdown } from '../shared/export/markdown.js';
import type { PageResult } from '../shared/page.js';

const PAGE_MARKDOWN = `# Heat equation

The solution $u(x,t)$ satisfies $\\partial_t u = \\alpha \\nabla^2 u$, so

$$
E(t) = \\int_0^1 u(x,t)^2 \\, dx \\le E(0).
$$

| Step | Error |
|-----:|------:|
| 1 | 0.5 |

![Mesh](folio-image:page-1-image-1.png)
`;

function page(markdown: string): PageResult {
  return {
    page: 1,
    width: 595,
    height: 842,
    markdown,
    blocks: [],
    images: [{ name: 'page-1-image-1.png', bbox: [72, 400, 200, 500], mime: 'image/png' }],
    stats: { engine: 'text', device: 'cpu', timeMs: 1, chars: markdown.length },
  };
}

/** The few page globals the check reads; typed here because this project compiles without the DOM library. */
interface PageGlobals {
  document: {
    fonts: { ready: Promise<unknown> } & Iterable<{ family: string; status: string }>;
    querySelectorAll(selector: string): { length: number };
    querySelector(selector: string): { naturalWidth?: number } | null;
  };
}

/** Runs inside the page, once fonts have settled. */
async function renderedState() {
  const { document } = globalThis as unknown as PageGlobals;
  await document.fonts.ready;
  const faces = [...document.fonts];
  return {
    katexMainLoaded: faces.some((face) => face.family.replace(/"/g, '') === 'KaTeX_Main' && face.status === 'loaded'),
    loadedFaces: faces.filter((face) => face.status === 'loaded').length,
    failedFaces: faces.filter((face) => face.status === 'error').length,
    mathElements: document.querySelectorAll('math').length,
    imageWidth: document.querySelector('img')?.naturalWidth ?? 0,
  };
}

describe('exported HTML in Chromium', () => {
  let dir: string;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-export-'));
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads KaTeX fonts and the exported image from the file alone, with no request leaving the page', async () => {
    await mkdir(join(dir, 'heat_assets'));
    await writeFile(join(dir, 'heat_assets', 'page-1-image-1.png'), createCanvas(8, 6).toBuffer('image/png'));
    const markdown = documentMarkdown([page(PAGE_MARKDOWN)], { resolveImage: (name) => `heat_assets/${name}` });
    const htmlFile = join(dir, 'heat.html');
    await writeFile(htmlFile, documentHtml(markdown, { title: 'Heat', mathCss: await loadMathCss() }));
    const fileUrl = pathToFileURL(htmlFile).href;

    const tab = await browser.newPage();
    const requests: string[] = [];
    const violations: string[] = [];
    tab.on('request', (request) => requests.push(request.url()));
    tab.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    await tab.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
    await tab.goto(fileUrl, { waitUntil: 'load' });

    const state = await tab.evaluate(renderedState);
    await tab.close();

    expect(state.katexMainLoaded).toBe(true);
    expect(state.loadedFaces).toBeGreaterThan(1);
    expect(state.failedFaces).toBe(0);
    expect(state.mathElements).toBe(3);
    expect(state.imageWidth).toBe(8);
    expect(violations).toEqual([]);
    const assetUrl = new URL('heat_assets/page-1-image-1.png', fileUrl).href;
    expect(requests.filter((url) => url !== fileUrl && url !== assetUrl)).toEqual([]);
  });
});
