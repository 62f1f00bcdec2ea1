/** What the UI specs do to the app, in the words a person would use. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

export const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures/out');
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../test-results/ui');

/** Drops a file on the drop zone the way a file manager would: a DataTransfer holding a File. */
export async function dropFile(page: Page, file: string, name = path.basename(file)): Promise<void> {
  // as base64: a 2 MB scan as an array of numbers took over a minute to reach a
  // page whose CPU the first-hour spec slows 8 times
  const base64 = (await readFile(file)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name }) => {
      const binary = atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], name, { type: 'application/pdf' }));
      return transfer;
    },
    { base64, name },
  );
  await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}
