/**
 * A table edited as cells, in Chromium against the browser-mode bridge and the text engine: the
 * table-spans fixture's HTML table (rowspan and colspan headers) opened from Edit, a cell changed
 * to text with markup characters and a row added, applied as one edit of the page's Markdown that
 * keeps the untouched cells' spans; the source editor's Ctrl+Z takes the whole table edit back,
 * Ctrl+Shift+Z repeats it, and the workspace saves it. The table-simple fixture's GFM pipe table:
 * opened with Ctrl+Alt+T from the cursor, a cell given a `|`, a row added and a column removed,
 * written back as a pipe table with the `|` escaped, and its header row turned off and saved.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startBridge, type Bridge } from '../electron/web/bridge-server.js';
import { dropFile, FIXTURES, screenshot } from './support/app-page.js';

const NEW_CELL = '125 & <rising>';

let scratch: string;
let bridge: Bridge;
test.beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'folio-ui-table-editor-'));
  bridge = await startBridge({ dataDir: path.join(scratch, 'data'), settings: { engine: 'text' } });
});
test.afterAll(async () => {
  await bridge.close();
  await rm(scratch, { recursive: true, force: true });
});

test('a table edited as cells is one undoable, saved edit that keeps the HTML spans', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await dropFile(page, path.join(FIXTURES, 'table-spans.pdf'));
  await expect(page.getByText('1 of 1 pages done')).toBeVisible({ timeout: 30_000 });
  const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  const engineMarkdown = (await bridge.service.getWorkspace()).documents[0]!.pages[0]!.engineMarkdown;
  expect(engineMarkdown).toContain('<td>120</td>');

  await section.getByRole('button', { name: 'Edit' }).click();
  await section.getByRole('toolbar', { name: 'Tables of page 1' }).getByRole('button', { name: 'Edit table' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit table on page 1' });
  await expect(dialog).toContainText('HTML table, 6 rows × 4 columns');
  // the headers' spans are kept in the grid: Sales over two columns, Region and Notes over two rows
  await expect(dialog.getByRole('textbox', { name: 'Row 1, column 2, header' })).toHaveValue('Sales');
  await expect(dialog.getByRole('textbox', { name: 'Row 2, column 2, header' })).toHaveValue('Q1');
  const cell = dialog.getByRole('textbox', { name: 'Row 3, column 2' });
  await expect(cell).toHaveValue('120');
  await cell.fill(NEW_CELL);
  // Enter goes down a row; the row is added below the last row
  await dialog.getByRole('textbox', { name: 'Row 5, column 2' }).click();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('textbox', { name: 'Row 6, column 2' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Add row' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Row 7, column 1' })).toBeFocused();
  await page.keyboard.type('Total');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('textbox', { name: 'Row 7, column 2' })).toBeFocused();
  await page.keyboard.type('410');
  await screenshot(page, '60-table-editor');
  // the pane scrolled on, so that the table's first line lies above its top edge
  await page.locator('.markdown-pane').evaluate((pane) => {
    const first = Array.from(pane.querySelectorAll('.cm-line')).find((line) => line.textContent?.startsWith('<table'));
    if (first) pane.scrollTop += first.getBoundingClientRect().top - pane.getBoundingClientRect().top + 40;
  });
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toHaveCount(0);
  // Apply puts the cursor at the table's start and scrolls that line into view below the sticky page header
  await expect
    .poll(() =>
      section.evaluate((element) => {
        const header = element.querySelector('.page-header')!.getBoundingClientRect();
        const first = Array.from(element.querySelectorAll('.cm-line')).find((line) => line.textContent?.startsWith('<table'));
        return first ? Math.round(first.getBoundingClientRect().top - header.bottom) : null;
      }),
    )
    .toBeGreaterThanOrEqual(0);

  // one edit of the Markdown: the cell escaped, the row added, the spans of the untouched cells kept
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  await expect(editor).toBeFocused();
  await expect(editor).toContainText('<td>125 &amp; &lt;rising&gt;</td>');
  await expect(editor).toContainText('<tr><td>Total</td><td>410</td><td></td><td></td></tr>');
  await expect(editor).toContainText('<th rowspan="2">Region</th><th colspan="2">Sales</th>');
  await expect(section.locator('.badge')).toHaveText('done, edited');
  const preview = page.getByLabel('Preview of page 1');
  await expect(preview.locator('td').filter({ hasText: NEW_CELL })).toHaveCount(1);
  await expect(preview.locator('tr').filter({ hasText: 'Total' })).toHaveCount(1);

  // Ctrl+Z in the editor takes the whole table edit back, Ctrl+Shift+Z repeats it
  await editor.press('ControlOrMeta+z');
  await expect(preview.locator('tr').filter({ hasText: 'Total' })).toHaveCount(0);
  await expect(preview.locator('td').filter({ hasText: /^120$/ })).toHaveCount(1);
  await expect(editor).not.toContainText('Total');
  await editor.press('ControlOrMeta+Shift+z');
  await expect(preview.locator('tr').filter({ hasText: 'Total' })).toHaveCount(1);
  // with the cursor in the table, Ctrl+Alt+T opens it again, as applied; Escape leaves it as it is
  await editor.locator('.cm-line').filter({ hasText: '<td>Total</td>' }).click();
  await editor.press('ControlOrMeta+Alt+t');
  await expect(dialog).toContainText('HTML table, 7 rows × 4 columns');
  await expect(dialog.getByRole('textbox', { name: 'Row 3, column 2' })).toHaveValue(NEW_CELL);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // saved like typing: the workspace holds the table as applied
  await section.getByRole('button', { name: 'Close editor' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect(section.locator('.badge')).toHaveText('done, edited');
  await expect(section.locator('td').filter({ hasText: NEW_CELL })).toHaveCount(1);
  const saved = (await bridge.service.getWorkspace()).documents[0]!.pages[0]!.editedMarkdown ?? '';
  expect(saved).toContain('<td>125 &amp; &lt;rising&gt;</td>');
  expect(saved).toContain('<tr><td>Total</td><td>410</td><td></td><td></td></tr>');
  // everything outside the table is as the engine wrote it
  const outside = (markdown: string) => [markdown.slice(0, markdown.indexOf('<table>')), markdown.slice(markdown.indexOf('</table>'))];
  expect(outside(saved)).toEqual(outside(engineMarkdown));
  expect(problems).toEqual([]);
});

test('a pipe table edited as cells stays a pipe table, its | escaped and its header row optional', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(bridge.url);
  await dropFile(page, path.join(FIXTURES, 'table-simple.pdf'));
  await expect(page.getByRole('heading', { name: 'table-simple.pdf' })).toBeVisible();
  await expect(page.getByText('1 of 1 pages done')).toBeVisible({ timeout: 30_000 });
  const documentOf = async () => (await bridge.service.getWorkspace()).documents.find((document) => document.name === 'table-simple.pdf')!;
  const engineMarkdown = (await documentOf()).pages[0]!.engineMarkdown;
  expect(engineMarkdown).toContain('| 09:40 | Skerry Lass | Holm | 25 min |');

  const section = page.getByRole('region', { name: 'Markdown' }).locator('.page-section[data-page="1"]');
  await section.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('textbox', { name: 'Markdown of page 1' });
  // Ctrl+Alt+T with the cursor in the table's text
  await editor.locator('.cm-line').filter({ hasText: 'Skerry Lass' }).click();
  await editor.press('ControlOrMeta+Alt+t');
  const dialog = page.getByRole('dialog', { name: 'Edit table on page 1' });
  await expect(dialog).toContainText('Table, 5 rows × 4 columns');
  await expect(dialog.getByRole('checkbox', { name: 'First row is the header' })).toBeChecked();
  await expect(dialog.getByRole('textbox', { name: 'Row 1, column 1, header' })).toHaveValue('Departure');
  await dialog.getByRole('textbox', { name: 'Row 3, column 2' }).fill('Skerry | Lass');
  // a row added under the last one, typed into with Tab; the Duration column removed
  await dialog.getByRole('textbox', { name: 'Row 5, column 1' }).click();
  await dialog.getByRole('button', { name: 'Add row' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Row 6, column 1' })).toBeFocused();
  await page.keyboard.type('18:00');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Morven');
  await dialog.getByRole('textbox', { name: 'Row 1, column 4, header' }).click();
  await dialog.getByRole('button', { name: 'Remove column' }).click();
  await expect(dialog).toContainText('Table, 6 rows × 3 columns');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toHaveCount(0);

  const table = [
    '| Departure | Vessel | Destination |',
    '| --- | --- | --- |',
    '| 07:15 | Morven | North Isle |',
    '| 09:40 | Skerry \\| Lass | Holm |',
    '| 12:05 | Morven | North Isle |',
    '| 16:30 | Island Star | Fair Haven |',
    '| 18:00 | Morven |  |',
  ];
  for (const line of table) await expect(editor.locator('.cm-line').filter({ hasText: line }).first()).toHaveText(line);
  await expect(section.locator('.badge')).toHaveText('done, edited');
  const preview = page.getByLabel('Preview of page 1');
  await expect(preview.locator('th')).toHaveText(['Departure', 'Vessel', 'Destination']);
  await expect(preview.locator('td').filter({ hasText: 'Skerry | Lass' })).toHaveCount(1);
  await expect(preview.locator('tr').filter({ hasText: '18:00' })).toHaveCount(1);

  // one step of undo takes the whole edit back
  await editor.press('ControlOrMeta+z');
  await expect(preview.locator('th')).toHaveText(['Departure', 'Vessel', 'Destination', 'Duration']);
  await expect(preview.locator('tr').filter({ hasText: '18:00' })).toHaveCount(0);
  await editor.press('ControlOrMeta+Shift+z');
  await expect(preview.locator('tr').filter({ hasText: '18:00' })).toHaveCount(1);

  // the first row as a body row: written under an empty header line, shown as data
  await editor.locator('.cm-line').filter({ hasText: '18:00' }).click();
  await editor.press('ControlOrMeta+Alt+t');
  await expect(dialog).toContainText('Table, 6 rows × 3 columns');
  await dialog.getByRole('checkbox', { name: 'First row is the header' }).uncheck();
  await expect(dialog.getByRole('textbox', { name: 'Row 1, column 1' })).toHaveValue('Departure');
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(preview.locator('td').filter({ hasText: /^Departure$/ })).toHaveCount(1);
  await expect(preview.locator('th').filter({ hasText: 'Departure' })).toHaveCount(0);

  await section.getByRole('button', { name: 'Close editor' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  const saved = (await documentOf()).pages[0]!.editedMarkdown ?? '';
  expect(saved).toContain(['|  |  |  |', '| --- | --- | --- |', table[0], ...table.slice(2)].join('\n'));
  // everything outside the table is as the engine wrote it
  const outside = (markdown: string) => [markdown.slice(0, markdown.indexOf('| ')), markdown.slice(markdown.lastIndexOf(' |') + 2)];
  expect(outside(saved)).toEqual(outside(engineMarkdown));
  expect(problems).toEqual([]);
});
