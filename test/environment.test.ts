import { describe, expect, it } from 'vitest';
import {
  ELECTRON, missingEnvironment, missingEnvironmentsLine, missingPrograms, needs, parseSkipDescription, skipDescription, WEBGPU, type Environment,
} from './environment.js';

const PLACED: Environment = { name: 'the corpus', ciProvides: true };

describe('what a test that needs an environment does without it', () => {
  it('runs where the environment is, in CI and out', () => {
    expect(needs(WEBGPU, null, false)).toEqual({});
    expect(needs(WEBGPU, null, true)).toEqual({});
    expect(missingEnvironment(ELECTRON, null, true)).toBeNull();
  });

  it('is skipped outside CI, with the environment and the reason for the summary line', () => {
    expect(needs(WEBGPU, 'no Vulkan driver', false)).toEqual({ skip: true, meta: { needs: { environment: 'WebGPU', problem: 'no Vulkan driver' } } });
  });

  it('fails under CI when CI provides the environment, saying which and why', () => {
    expect(() => needs(WEBGPU, 'the WebGPU provider did not start', true)).toThrow('CI=true and WebGPU is missing: the WebGPU provider did not start');
    expect(() => missingEnvironment(PLACED, 'no corpus at /x', true)).toThrow('CI=true and the corpus is missing: no corpus at /x');
  });

  it('is skipped under CI too when CI cannot have it', () => {
    expect(needs(ELECTRON, 'never downloaded', true)).toEqual({ skip: true, meta: { needs: { environment: 'the Electron binary', problem: 'never downloaded' } } });
  });

  it('reads CI from CI=true only', () => {
    const saved = process.env.CI;
    try {
      process.env.CI = 'true';
      expect(() => needs(WEBGPU, 'absent')).toThrow(/^CI=true and WebGPU is missing/);
      process.env.CI = '';
      expect(needs(WEBGPU, 'absent').skip).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.CI;
      else process.env.CI = saved;
    }
  });
});

describe('missing programs', () => {
  it('names each absent program with its Debian package, and nothing when all are there', () => {
    expect(missingPrograms({ sh: 'dash' })).toBeNull();
    expect(missingPrograms({ sh: 'dash', 'folio-no-such-program': 'folio-none', '/nonexistent/tool': 'tools' })).toBe(
      'not installed: folio-no-such-program (Debian folio-none), /nonexistent/tool (Debian tools)',
    );
  });
});

describe('the summary line', () => {
  it('counts the skipped tests of each environment on one line, with each distinct reason once', () => {
    const line = missingEnvironmentsLine([
      { environment: 'the Electron binary', problem: 'never downloaded' },
      { environment: 'WebGPU', problem: 'no adapter:\n  Vulkan' },
      { environment: 'the Electron binary', problem: 'never downloaded' },
    ]);
    expect(line).toBe('Environments missing here, their tests skipped: the Electron binary, 2 tests (never downloaded); WebGPU, 1 test (no adapter: Vulkan)');
    expect(missingEnvironmentsLine([])).toBe('Environments missing here: none; no test was skipped for want of one.');
  });

  it('reads back the skip description a Playwright test was given, and no other skip', () => {
    const missing = { environment: 'the Electron binary', problem: 'never downloaded: run npx install-electron' };
    expect(parseSkipDescription(skipDescription(missing))).toEqual(missing);
    expect(parseSkipDescription('flaky on Tuesdays')).toBeNull();
    expect(parseSkipDescription(undefined)).toBeNull();
  });
});
