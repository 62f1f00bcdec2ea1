import { defineConfig } from '@playwright/test';
import base from '../playwright.config.js';

/** Benchmarks of the UI, kept out of `npm test`: `npx playwright test -c e2e/bench/playwright.bench.config.ts`. */
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.bench.ts',
  globalSetup: undefined,
  timeout: 300_000,
});
