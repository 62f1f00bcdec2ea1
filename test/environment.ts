/**
 * What a test needs from the machine beyond the repository, and what happens when it is missing:
 * outside CI the test is skipped with the reason; under CI (`CI=true`), where .ci/run installs or
 * places it, the test file fails with the reason, so a broken install never passes as a skip. What
 * CI cannot have at all (the Electron binary) is skipped there too, and the run's last line names
 * it with the count of its tests (test/environment-reporter.ts, e2e/environment-reporter.ts).
 */

import { spawnSync } from 'node:child_process';
import type { TestOptions } from 'vitest';

export interface Environment {
  /** As the summary line names it. */
  name: string;
  /** CI has it (.ci/run installs it, or it lies beside the clone): missing there is a failure. */
  ciProvides: boolean;
}

/** ONNX Runtime's WebGPU provider: on Linux a Vulkan driver (Mesa's lavapipe in CI). */
export const WEBGPU: Environment = { name: 'WebGPU', ciProvides: true };
/** PDF.js's test PDFs at ../shared/corpus beside the clone, or FOLIO_CORPUS_ROOT. */
export const PDFJS_CORPUS: Environment = { name: 'the PDF.js corpus', ciProvides: true };
/** The real-document set at ../shared/real-docs beside the clone, or FOLIO_REAL_DOCS. */
export const REAL_DOCS: Environment = { name: 'real-docs', ciProvides: true };
/** Programs .ci/run installs from Debian: pdflatex, LibreOffice, poppler-utils, tesseract, Chromium. */
export const PROGRAMS: Environment = { name: 'Debian programs', ciProvides: true };
/** A mount namespace of one's own (`unshare --mount --map-root-user`), for a small full disk. */
export const MOUNT_NAMESPACE: Environment = { name: 'a mount namespace', ciProvides: true };
/** Electron's binary, which `npm ci` cannot download where there is no network. */
export const ELECTRON: Environment = { name: 'the Electron binary', ciProvides: false };
/** A user whom file permissions stop: CI may run as root. */
export const NOT_ROOT: Environment = { name: 'a user other than root', ciProvides: false };

/** An environment missing here, and why. */
export interface MissingEnvironment {
  environment: string;
  problem: string;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a test skipped for want of an environment; read by the environment reporter. */
    needs?: MissingEnvironment;
  }
}

/** The build runs under CI. */
export function underCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true';
}

/**
 * The decision: null when the environment is here (`problem` null); otherwise what is missing, for
 * a skip; under CI, for an environment CI provides, an error saying what is missing and why.
 */
export function missingEnvironment(environment: Environment, problem: string | null, ci = underCi()): MissingEnvironment | null {
  if (problem === null) return null;
  if (ci && environment.ciProvides) throw new Error(`CI=true and ${environment.name} is missing: ${problem}`);
  return { environment: environment.name, problem };
}

/**
 * Vitest options for a suite or test that needs `environment`: `describe(title, needs(WEBGPU, problem), ...)`.
 * Called while the file is collected, so under CI a missing environment fails the whole file.
 */
export function needs(environment: Environment, problem: string | null, ci = underCi()): TestOptions {
  const missing = missingEnvironment(environment, problem, ci);
  return missing === null ? {} : { skip: true, meta: { needs: missing } };
}

/** The same decision inside a running test, for a need found only by trying. */
export function needsNow(context: { skip(note?: string): never; task: { meta: { needs?: MissingEnvironment } } }, environment: Environment, problem: string | null): void {
  const missing = missingEnvironment(environment, problem);
  if (missing === null) return;
  context.task.meta.needs = missing;
  context.skip(`${missing.environment}: ${missing.problem}`);
}

/** Why the programs are missing here (each absent one with the Debian package that has it), or null. */
export function missingPrograms(programs: Readonly<Record<string, string>>): string | null {
  const absent = Object.entries(programs)
    .filter(([command]) => spawnSync('which', [command], { stdio: 'ignore' }).status !== 0)
    .map(([command, debianPackage]) => `${command} (Debian ${debianPackage})`);
  return absent.length === 0 ? null : `not installed: ${absent.join(', ')}`;
}

/** The skip description a Playwright test gets, and how its reporter reads it back. */
export function skipDescription(missing: MissingEnvironment): string {
  return `needs ${missing.environment}: ${missing.problem}`;
}

export function parseSkipDescription(description: string | undefined): MissingEnvironment | null {
  const match = /^needs (.+?): (.*)$/s.exec(description ?? '');
  return match ? { environment: match[1]!, problem: match[2]! } : null;
}

/** One line: each missing environment with the count of the tests it holds and why it is missing. */
export function missingEnvironmentsLine(skipped: readonly MissingEnvironment[]): string {
  if (skipped.length === 0) return 'Environments missing here: none; no test was skipped for want of one.';
  const byEnvironment = new Map<string, { count: number; problems: Set<string> }>();
  for (const { environment, problem } of skipped) {
    const entry = byEnvironment.get(environment) ?? { count: 0, problems: new Set<string>() };
    entry.count += 1;
    entry.problems.add(problem.replace(/\s+/g, ' ').trim());
    byEnvironment.set(environment, entry);
  }
  const parts = [...byEnvironment].map(([environment, { count, problems }]) => `${environment}, ${count} test${count === 1 ? '' : 's'} (${[...problems].join('; ')})`);
  return `Environments missing here, their tests skipped: ${parts.join('; ')}`;
}
