import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // vitest's setup: `npm run test:e2e` on its own still finds the fixture PDFs and the scans made from them
  globalSetup: '../test/global-setup.ts',
  timeout: 60_000,
  // Every check waits on the app's own state; 5 s (Playwright's default) was too short for a page
  // image on a 2-core machine busy with something else, so each check may wait up to 30 s.
  expect: { timeout: 30_000 },
  workers: 1,
  // the last line names the environments whose tests were skipped here (test/environment.ts)
  reporter: [['list'], ['./environment-reporter.ts']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      // Debian's Chromium: Playwright never downloads a browser here.
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
