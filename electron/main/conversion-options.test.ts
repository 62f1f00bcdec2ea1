import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { conversionOptions } from './conversion-options.js';

describe('conversionOptions', () => {
  it('asks for the settings’ engine, headers and always the figures, with no VLM without a model folder', async () => {
    expect(await conversionOptions({ ...DEFAULT_SETTINGS, engine: 'text', keepHeaders: true }, {})).toEqual({
      engine: 'text',
      keepHeaders: true,
      extractImages: true,
      vlm: undefined,
    });
  });

  it('lets one run override the engine and the mode, and leaves K to the package when set to auto', async () => {
    const modelDir = await mkdtemp(path.join(os.tmpdir(), 'folio-no-model-'));
    try {
      const settings = { ...DEFAULT_SETTINGS, modelDir, mode: 'base', specK: 'auto' as const, maxNewTokens: 2048 };
      const options = await conversionOptions(settings, { engine: 'vlm', mode: 'large' });
      expect(options.engine).toBe('vlm');
      // a folder without an MTP head in its manifest decodes plain greedy
      expect(options.vlm).toEqual({ modelDir, specK: 0, mode: 'large', maxNewTokens: 2048 });
      expect((await conversionOptions({ ...settings, specK: 2 }, {})).vlm).toEqual({ modelDir, specK: 2, mode: 'base', maxNewTokens: 2048 });
    } finally {
      await rm(modelDir, { recursive: true, force: true });
    }
  });
});
