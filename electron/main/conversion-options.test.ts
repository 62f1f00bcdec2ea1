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
      remote: undefined,
      lang: 'auto',
    });
  });

  const withServer = { ...DEFAULT_SETTINGS, remoteServer: 'http://gpu-box:8000', remoteModel: 'test-ocr', remoteConcurrency: 4, remoteTimeoutS: 30 };

  it('sends the remote server, model, concurrency and request time limit when the remote engine is chosen', async () => {
    const options = await conversionOptions({ ...withServer, engine: 'remote', remoteImageFormat: 'jpeg', remoteImageSide: 1024, maxNewTokens: 1000 }, {});
    expect(options.engine).toBe('remote');
    expect(options.remote).toEqual({
      server: 'http://gpu-box:8000',
      model: 'test-ocr',
      concurrency: 4,
      timeoutMs: 30_000,
      retries: 3,
      imageLongSide: 1024,
      imageFormat: 'jpeg',
      maxTokens: 1000,
    });
  });

  it('never hands a configured server to auto or another engine, so no page leaves the machine unasked', async () => {
    expect((await conversionOptions(withServer, {})).remote).toBeUndefined();
    expect((await conversionOptions({ ...withServer, engine: 'lite' }, {})).remote).toBeUndefined();
    expect((await conversionOptions({ ...withServer, engine: 'lite' }, { engine: 'remote' })).remote?.server).toBe('http://gpu-box:8000');
  });

  it('refuses the remote engine without a server, saying where to set one', async () => {
    await expect(conversionOptions({ ...DEFAULT_SETTINGS, engine: 'remote' }, {})).rejects.toThrow(/needs a server.*Settings/);
    await expect(conversionOptions({ ...DEFAULT_SETTINGS, remoteServer: 'http://gpu-box:8000' }, { engine: 'remote' })).rejects.toThrow(/model name/);
  });

  it('passes the OCR language to the lite engine', async () => {
    expect((await conversionOptions({ ...DEFAULT_SETTINGS, ocrLang: 'fr' }, {})).lang).toBe('fr');
  });

  it('lets one run override the engine and the mode, and leaves K to the package when set to auto', async () => {
    const modelDir = await mkdtemp(path.join(os.tmpdir(), 'folio-no-model-'));
    try {
      const settings = { ...DEFAULT_SETTINGS, modelDir, mode: 'base', specK: 'auto' as const, maxNewTokens: 2048 };
      const options = await conversionOptions(settings, { engine: 'vlm', mode: 'large' });
      expect(options.engine).toBe('vlm');
      // a folder without an MTP head in its manifest decodes plain greedy
      expect(options.vlm).toEqual({ modelDir, specK: 0, mode: 'large', maxNewTokens: 2048, device: 'auto' });
      expect((await conversionOptions({ ...settings, specK: 2 }, {})).vlm).toEqual({ modelDir, specK: 2, mode: 'base', maxNewTokens: 2048, device: 'auto' });
      expect((await conversionOptions({ ...settings, pagesInFlight: 4 }, {})).vlm).toMatchObject({ pagesInFlight: 4 });
    } finally {
      await rm(modelDir, { recursive: true, force: true });
    }
  });
});
