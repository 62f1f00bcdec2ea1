/**
 * A table edited as cells, in Chromium against the browser-mode bridge and the text engine: the
 * table-spans fixture's HTML table (rowspan and colspan headers) opened from Edit, a cell changed
 * to text with markup characters and a row added, applied as one edit of the page's Markdown that
 * keeps the untouched cells' spans; the source editor's Ctrl+Z takes the whole table edit back,
 * Ctrl+Shift+Z repeats it, and the workspace saves it.
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
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toHaveCount(0);

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
