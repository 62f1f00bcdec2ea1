/**
 * An engine failure carries what to do as data; the CLI words it with its flags and the app with its
 * own controls, so the app never tells a user to type a flag.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureText, REMEDIES, type Failure } from '../shared/failure.js';
import { CLI_REMEDY_WORDS, inCliWords } from '../electron/cli/remedy-words.js';
import { toFailure } from '../electron/core/failure-error.js';
import { startExecutionProvider } from '../electron/engine/onnx/execution-provider.js';
import { openPdf } from '../electron/engine/pdf/open-pdf.js';
import { APP_REMEDY_WORDS } from '../renderer/remedy-words.js';
import { encryptedPdf } from './encrypted-pdf.js';

let folder: string;
let locked: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'folio-remedy-'));
  locked = path.join(folder, 'locked.pdf');
  await writeFile(locked, encryptedPdf('hunter2', 'Words behind a password'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function openFailure(file: string): Promise<Failure> {
  try {
    await openPdf(file);
  } catch (error) {
    return toFailure(error);
  }
  throw new Error(`${file} opened without a password`);
}

describe('an encrypted PDF opened without its password', () => {
  it('fails with the remedy as data and a message that names no flag', async () => {
    const failure = await openFailure(locked);
    expect(failure).toEqual({ code: 'encrypted', message: `${locked}: encrypted`, remedy: 'password' });
  });

  it('is worded by the CLI with --password', async () => {
    expect(inCliWords(await openFailure(locked))).toEqual({ code: 'encrypted', message: `${locked}: encrypted; give its password with --password.` });
  });

  it('is worded by the app with its password field', async () => {
    expect(failureText(await openFailure(locked), APP_REMEDY_WORDS)).toBe(`${locked}: encrypted; enter its password.`);
  });
});

describe('a device asked for that does not start', () => {
  // no machine has a 100th CUDA device: the probe fails whether or not the CUDA libraries are installed
  async function deviceFailure(): Promise<Failure> {
    try {
      await startExecutionProvider({ kind: 'cuda', deviceId: 99 });
    } catch (error) {
      return toFailure(error);
    }
    throw new Error('CUDA device 99 answered');
  }

  it('names the device and what failed, with choosing another as the remedy', async () => {
    const failure = await deviceFailure();
    expect(failure).toMatchObject({ code: 'model-package', remedy: 'device' });
    expect(failure.message).toMatch(/^device cuda:99: (CUDA|the CUDA provider)/);
    expect(failure.message).not.toMatch(/--[a-z]/);
  });

  it('is worded by the CLI with --device and by the app with its Device setting', async () => {
    const failure = await deviceFailure();
    expect(inCliWords(failure).message).toBe(`${failure.message}; use --device cpu or auto.`);
    expect(failureText(failure, APP_REMEDY_WORDS)).toBe(`${failure.message}; choose CPU or Automatic as the Device in Settings.`);
  });
});

describe('the CLI’s words for a remedy', () => {
  it('name the flag to give, for every remedy', () => {
    for (const remedy of REMEDIES) expect(CLI_REMEDY_WORDS[remedy], remedy).toMatch(/--[a-z]/);
  });
});

describe('the app’s words for a remedy', () => {
  it('name no command-line flag, for every remedy', () => {
    for (const remedy of REMEDIES) expect(APP_REMEDY_WORDS[remedy], remedy).not.toMatch(/--[a-z]/);
  });

  it('leave a failure without a remedy as it is', () => {
    expect(failureText({ message: 'page 2: the engine crashed.' }, APP_REMEDY_WORDS)).toBe('page 2: the engine crashed.');
  });
});
