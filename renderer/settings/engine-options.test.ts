import { describe, expect, it } from 'vitest';
import { ENGINE_CHOICES } from '../../shared/engine-name.js';
import { engineOptions, hasAdvanced } from './engine-options.js';

describe('engineOptions', () => {
  it('gives the text layer nothing to set, and no Advanced section', () => {
    const options = engineOptions('text', true);
    expect(Object.values(options).every((shown) => !shown)).toBe(true);
    expect(hasAdvanced(options)).toBe(false);
  });

  it('shows the server only for the remote engine, and the model internals never with it', () => {
    for (const engine of ENGINE_CHOICES) expect(engineOptions(engine, true).remoteServer).toBe(engine === 'remote');
    expect(engineOptions('remote', true)).toMatchObject({ modelPackage: false, modelInternals: false, tokenLimit: true });
  });

  it('gives Automatic the model internals only once a package is set, and the OCR language only without one', () => {
    expect(engineOptions('auto', false)).toMatchObject({ modelPackage: true, modelInternals: false, ocrLanguage: true });
    expect(engineOptions('auto', true)).toMatchObject({ modelPackage: true, modelInternals: true, ocrLanguage: false });
    expect(engineOptions('lite', false)).toMatchObject({ ocrLanguage: true, modelPackage: false });
    expect(engineOptions('vlm', false)).toMatchObject({ modelPackage: true, modelInternals: true });
  });
});
