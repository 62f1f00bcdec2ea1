/**
 * The window's layout as a person meets it, in Chromium against the browser-mode bridge and the
 * text engine: no sideways scrolling at 1440, 800 and 640 px and an editor wide enough to read a
 * table row; the divider between page and Markdown dragged, moved by keys and kept across a
 * reload; the window lit up while files are dragged over it; the save state when the backend is
 * gone; hover and click linking Markdown and page regions after an edit. Narrow, the status bar wraps
 * rather than cutting its facts to an ellipsis, and the header puts the review stepper on a line of
 * its own rather than laying its buttons over Export and Settings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { PAGE_SHARE_BOUNDS } from '../shared/settings.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';

const PDF = path.join(FIXTURES, 'running-headers.pdf');

let bridge: Bridge;
test.beforeAll(async () => {
  bridge = await startBridge({ settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge.close();
});

/**
 * Opens the fixture with Open… (the input works while the list is a closed drawer too) and waits
 * for its pages, and, when an earlier test opened it, for the notice saying so (it moves the panes down).
 */
async function openConverted(page: Page, on: Bridge = bridge): Promise<void> {
  const wasOpen = (await on.service.getWorkspace()).documents.some((document) => document.name === path.basename(PDF));
  await page.getByLabel('Open…').setInputFiles(PDF);
  if (wasOpen) await expect(page.getByText(`${path.basename(PDF)} is already open`)).toBeVisible();
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"] .markdown-body')).not.toBeEmpty();
}

/** An element's box once layout has settled (pages, thumbnails and notices arrive after the text): two reads a poll apart agree. */
async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = '';
  await expect
    .poll(async () => {
      const box = JSON.stringify(await locator.boundingBox());
      const same = box === last;
      last = box;
      return same;
    })
    .toBe(true);
  return (await locator.boundingBox())!;
}

async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = document.scrollingElement!;
    return root.scrollWidth - root.clientWidth;
  });
}

/** The status bar's facts that do not show whole: cut by an ellipsis or running out of the window. */
async function clippedStatusFacts(page: Page): Promise<string[]> {
  return page
    .locator('.status-bar .status-fact')
    .evaluateAll((facts) => facts.filter((fact) => fact.scrollWidth > fact.clientWidth + 1 || fact.getBoundingClientRect().right > window.innerWidth).map((fact) => fact.textContent ?? ''));
}

/** Pairs of the header's buttons and counts whose boxes overlap. */
async function overlappingHeaderItems(page: Page): Promise<string[]> {
  return page.locator('.app-header').evaluate((header) => {
    const items = Array.from(header.querySelectorAll('button, .review-left')).filter((item) => item.getClientRects().length > 0);
    const overlaps: string[] = [];
    items.forEach((a, i) => {
      for (const b of items.slice(i + 1)) {
        const [x, y] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        if (x.left < y.right - 1 && y.left < x.right - 1 && x.top < y.bottom - 1 && y.top < x.bottom - 1) overlaps.push(`${a.textContent} / ${b.textContent}`);
      }
    });
    return overlaps;
  });
}

async function widthOf(page: Page, selector: string): Promise<number> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  return box.width;
}

test('nothing scrolls sideways at 1440, 800 or 640 px, and the editor stays wide; the document list is a drawer when narrow', async ({ page }) => {
  // nothing open yet at 640 px: the drop zone and its Open… are in view, not in a closed drawer
  await page.setViewportSize({ width: 640, height: 800 });
  await page.goto(bridge.url);
  await expect(page.getByRole('heading', { name: 'Nothing open yet' })).toBeVisible();
  await expect(page.getByText('Open…', { exact: true })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await screenshot(page, '59-layout-640-empty');

  await page.setViewportSize({ width: 1440, height: 900 });
  await openConverted(page);
  const markdown = page.getByRole('region', { name: 'Markdown' });
  await markdown.locator('.page-section[data-page="1"]').getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await expect(editor).toBeVisible();

  // was a 280 px column at 1440 px; now most of the Markdown pane, which takes the larger share
  const sizes = [
    { width: 1440, editorAtLeast: 560 },
    { width: 800, editorAtLeast: 380 },
    { width: 640, editorAtLeast: 520 },
  ];
  for (const { width, editorAtLeast } of sizes) {
    await page.setViewportSize({ width, height: 800 });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
    await expect.poll(() => horizontalOverflow(page), { message: `sideways scroll at ${width} px` }).toBeLessThanOrEqual(0);
    await expect.poll(() => widthOf(page, '.page-section[data-page="1"] .source-editor'), { message: `editor width at ${width} px` }).toBeGreaterThanOrEqual(editorAtLeast);
    // the page and the save state stay in view
    await expect(page.getByRole('region', { name: 'Pages' })).toBeVisible();
    await expect(page.locator('.status-bar .save-state')).toBeVisible();
    // every fact of the status bar whole (it wraps when narrow), none cut to "Device: …"
    expect(await clippedStatusFacts(page), `status bar at ${width} px`).toEqual([]);
    // the header's buttons never lie over one another (the review stepper takes its own line when narrow)
    expect(await overlappingHeaderItems(page), `header at ${width} px`).toEqual([]);
    await screenshot(page, `60-layout-${width}`);
  }

  // at 640 px the pages stack above the Markdown, and the document list opens from the header
  await expect(page.getByRole('separator', { name: 'Resize pages and Markdown' })).toHaveAttribute('aria-orientation', 'horizontal');
  const documents = page.getByRole('navigation', { name: 'Documents' });
  await expect(documents).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Documents (1)' });
  await toggle.click();
  await expect(documents).toBeVisible();
  // the drawer opens below the header, however many lines that takes
  const headerBottom = (await page.locator('.app-header').boundingBox())!;
  expect((await documents.boundingBox())!.y).toBeGreaterThanOrEqual(headerBottom.y + headerBottom.height - 1);
  await screenshot(page, '61-layout-640-drawer');
  await documents.getByRole('button', { name: /^running-headers\.pdf/ }).click();
  await expect(documents).toBeHidden();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test('the divider is dragged or moved with the arrow keys, and stays where it was left across a reload', async ({ page }) => {
  // from the default share, whatever an earlier run of this test left
  await bridge.service.setSettings({ pageShare: PAGE_SHARE_BOUNDS.default });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(bridge.url);
  await openConverted(page);
  const divider = page.getByRole('separator', { name: 'Resize pages and Markdown' });
  await expect(divider).toHaveAttribute('aria-orientation', 'vertical');
  // measured once the layout has settled: the thumbnail strip and the page images arrive after the text
  const box = await settledBox(divider);
  const before = Number(await divider.getAttribute('aria-valuenow'));
  const markdownBefore = (await settledBox(page.locator('.markdown-pane').first())).width;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(page.locator('.pane-split.dragging')).toHaveCount(1);
  await page.mouse.move(box.x - 100, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x - 200, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Number(await divider.getAttribute('aria-valuenow'))).toBeLessThan(before - 10);
  await expect.poll(() => widthOf(page, '.markdown-pane')).toBeGreaterThan(markdownBefore + 150);
  const dragged = Number(await divider.getAttribute('aria-valuenow'));

  // keys: focused, each arrow moves it 2 %
  await divider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(divider).toHaveAttribute('aria-valuenow', String(dragged + 4));
  await page.keyboard.press('ArrowLeft');
  await expect(divider).toHaveAttribute('aria-valuenow', String(dragged + 2));
  await expect.poll(async () => Math.round((await bridge.service.getSettings()).pageShare * 100)).toBe(dragged + 2);
  await screenshot(page, '62-divider-moved');

  await page.reload();
  await expect(page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]')).toBeVisible();
  await expect(page.getByRole('separator', { name: 'Resize pages and Markdown' })).toHaveAttribute('aria-valuenow', String(dragged + 2));
});

test('the window lights up while files are dragged over it, and not after they leave or are dropped', async ({ page }) => {
  await page.goto(bridge.url);
  await expect(page.locator('.status-bar')).toBeVisible();
  const transfer = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['%PDF-1.4'], 'dragged.pdf', { type: 'application/pdf' }));
    return data;
  });
  const highlight = page.getByTestId('window-drop-highlight');
  await expect(highlight).toBeHidden();
  await page.locator('main').dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(highlight).toBeVisible();
  await expect(highlight).toContainText('Drop to open');
  await screenshot(page, '63-drop-highlight');
  // crossing from one element into another inside the window keeps it
  await page.locator('.status-bar').dispatchEvent('dragenter', { dataTransfer: transfer });
  await page.locator('main').dispatchEvent('dragleave', { dataTransfer: transfer });
  await expect(highlight).toBeVisible();
  await page.locator('.status-bar').dispatchEvent('dragleave', { dataTransfer: transfer });
  await expect(highlight).toBeHidden();

  // a drop puts it out too (and opens the file)
  await page.getByTestId('drop-zone').dispatchEvent('dragenter', { dataTransfer: transfer });
  await expect(highlight).toBeVisible();
  await dropFile(page, PDF);
  await expect(highlight).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Documents' }).getByRole('button', { name: /^running-headers\.pdf/ })).toBeVisible();
  await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
});

test('with the backend gone, the status bar and the notice both say the edit is not saved', async ({ page }) => {
  const own = await startBridge({ settings: { engine: 'text' } });
  try {
    await page.goto(own.url);
    await openConverted(page, own);
    const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="2"]');
    await section.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('textbox', { name: 'Markdown of page 2' });
    await editor.press('ControlOrMeta+End');
    await editor.pressSequentially('\n\nSaved while the backend ran.');
    const saveState = page.locator('.status-bar .save-state');
    await expect(saveState).toHaveText('All changes saved');
  } finally {
    await own.close();
  }
  const editor = page.getByRole('textbox', { name: 'Markdown of page 2' });
  await editor.press('ControlOrMeta+End');
  await editor.pressSequentially('\n\nTyped after it died.');
  const saveState = page.locator('.status-bar .save-state');
  await expect(saveState).toHaveText('Not saved: page 2');
  const notice = page.locator('.save-notice');
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText('Page 2 could not be saved');
  await expect(page.getByText('All changes saved')).toHaveCount(0);
  // trying again against a dead backend changes neither
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(saveState).toHaveText('Not saved: page 2');
  await expect(notice).toBeVisible();
  await screenshot(page, '64-save-failed');
});

test('hovering and clicking still link the Markdown and the page regions after an edit', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(bridge.url);
  await page.getByRole('navigation', { name: 'Documents' }).getByRole('button', { name: /^running-headers\.pdf/ }).click();
  const markdown = page.getByRole('region', { name: 'Markdown' });
  const section = markdown.locator('.page-section[data-page="1"]');
  await expect(section.locator('.block[data-block]').first()).toBeVisible();
  const linkedBefore = await section.locator('.block[data-block]').count();

  await section.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await editor.press('ControlOrMeta+Home');
  await editor.pressSequentially('# Added in review\n\n');
  await section.getByRole('button', { name: 'Close editor' }).click();
  await expect(section.locator('.badge')).toHaveText(/edited/);
  await expect(section.getByRole('heading', { name: 'Added in review' })).toBeVisible();

  // every block the engine wrote is still tied to its region; the added heading to none
  await expect(section.locator('.block[data-block]')).toHaveCount(linkedBefore);
  await expect(section.locator('.block.unlinked')).toContainText('Added in review');
  const overlay = page.getByRole('region', { name: 'Pages' }).locator('.page-slot').first().locator('.page-overlay');
  const block = section.locator('.block[data-block]').last();
  const index = await block.getAttribute('data-block');
  await block.hover();
  await expect(overlay.locator('.block-region.hovered')).toHaveAttribute('data-block', index!);
  await section.locator('.block.unlinked').hover();
  await expect(overlay.locator('.block-region.hovered')).toHaveCount(0);

  // clicking a region reveals its block in the edited Markdown
  await overlay.locator(`.block-region[data-block="${index}"]`).click();
  await expect(section.locator(`.block[data-block="${index}"]`)).toHaveClass(/revealed/);
  await screenshot(page, '65-linked-after-edit');
});

test('after a restart, documents stopped part-way are named in a notice whose Resume converts the rest', async ({ page }) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-layout-restart-'));
  try {
    // the first run converts only page 1 of 4, then closes
    const first = await startBridge({ dataDir, settings: { engine: 'text' } });
    try {
      const [docId] = await first.service.openDocuments([PDF]);
      await expect.poll(async () => (await first.service.getWorkspace()).documents[0]?.info?.pageCount).toBe(4);
      await first.service.convert({ docId: docId!, pages: [1] });
      await expect.poll(async () => (await first.service.getWorkspace()).documents[0]?.pages[0]?.state).toBe('done');
    } finally {
      await first.close();
    }
    const second = await startBridge({ dataDir, settings: { engine: 'text' } });
    try {
      await page.goto(second.url);
      const notice = page.locator('.resume-notice');
      await expect(notice).toContainText('1 document was stopped part-way and waits to be resumed.');
      await screenshot(page, '66-resume-notice');
      await notice.getByRole('button', { name: 'Resume it' }).click();
      await expect(page.getByText('4 of 4 pages done')).toBeVisible({ timeout: 30_000 });
      await expect(notice).toBeHidden();
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
