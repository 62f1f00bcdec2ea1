/** What the UI specs do to the app, in the words a person would use. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

export const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures/out');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/ui');

/** Drops a file on the drop zone the way a file manager would: a DataTransfer holding a File. */
export async function dropFile(page: Page, file: string, name = path.basename(file)): Promise<void> {
  const bytes = [...(await readFile(file))];
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, name }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'application/pdf' }));
      return transfer;
    },
    { bytes, name },
  );
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}
