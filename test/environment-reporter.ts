/**
 * Vitest reporter: after the run, one line naming each environment whose tests were skipped for
 * want of it, with their count and why (the meta test/environment.ts sets on them).
 */

import type { Reporter, TestModule } from 'vitest/node';
import { missingEnvironmentsLine, type MissingEnvironment } from './environment.js';

export default class EnvironmentReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: MissingEnvironment[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const missing = test.meta().needs;
        if (missing) skipped.push(missing);
      }
    }
    console.log(`\n${missingEnvironmentsLine(skipped)}\n`);
  }
}
