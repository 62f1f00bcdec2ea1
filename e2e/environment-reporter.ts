/**
 * Playwright reporter: after the run, one line naming each environment whose tests were skipped for
 * want of it (the Electron binary), with their count and why, as vitest's run ends (test/environment.ts).
 */

import type { Reporter, Suite } from '@playwright/test/reporter';
import { missingEnvironmentsLine, parseSkipDescription, type MissingEnvironment } from '../test/environment.js';

export default class EnvironmentReporter implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: unknown, suite: Suite): void {
    this.root = suite;
  }

  onEnd(): void {
    const skipped: MissingEnvironment[] = [];
    for (const test of this.root?.allTests() ?? []) {
      if (test.outcome() !== 'skipped') continue;
      const annotations = [...test.annotations, ...test.results.flatMap((result) => result.annotations)];
      const missing = annotations.filter((a) => a.type === 'skip').map((a) => parseSkipDescription(a.description)).find((m) => m !== null);
      if (missing) skipped.push(missing);
    }
    console.log(`\n${missingEnvironmentsLine(skipped)}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
