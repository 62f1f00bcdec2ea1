import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from './settings.js';

describe('settings', () => {
  it('fills defaults and keeps the valid fields of a damaged settings file', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    const parsed = parseSettings({ engine: 'warp', specK: 2, maxNewTokens: -5, theme: 'dark', modelDir: '/models/jina', extra: true });
    expect(parsed).toEqual({ ...DEFAULT_SETTINGS, specK: 2, theme: 'dark', modelDir: '/models/jina' });
  });

  it('keeps pages in flight from 1 to 16, one at a time by default', () => {
    expect(DEFAULT_SETTINGS.pagesInFlight).toBe(1);
    expect(parseSettings({ pagesInFlight: 4 }).pagesInFlight).toBe(4);
    expect(parseSettings({ pagesInFlight: 0 }).pagesInFlight).toBe(1);
    expect(parseSettings({ pagesInFlight: 17 }).pagesInFlight).toBe(1);
    expect(parseSettings({ pagesInFlight: 'auto' }).pagesInFlight).toBe('auto');
    expect(parseSettings({ pagesInFlight: 'Auto' }).pagesInFlight).toBe(1);
  });

  it('keeps an http(s) server address and refuses one that is not, or that carries a password', () => {
    expect(parseSettings({ remoteServer: ' http://gpu-box:8000/v1 ' }).remoteServer).toBe('http://gpu-box:8000/v1');
    expect(parseSettings({ remoteServer: 'ftp://gpu-box' }).remoteServer).toBeNull();
    // typed without a scheme, as people do: plain http, as a browser's address bar reads it
    expect(parseSettings({ remoteServer: 'localhost:8765' }).remoteServer).toBe('http://localhost:8765');
    expect(parseSettings({ remoteServer: 'gpu-box' }).remoteServer).toBe('http://gpu-box');
    expect(parseSettings({ remoteServer: 'gpu-box:8000 x' }).remoteServer).toBeNull();
    expect(parseSettings({ remoteServer: 'https://user:secret@gpu-box' }).remoteServer).toBeNull();
  });

  it('keeps the remote limits and OCR language in range, else their defaults', () => {
    const parsed = parseSettings({ remoteConcurrency: 0, remoteTimeoutS: 60, remoteImageFormat: 'webp', ocrLang: 'fr', remoteModel: '  ' });
    expect(parsed).toMatchObject({ remoteConcurrency: 16, remoteTimeoutS: 60, remoteImageFormat: 'png', ocrLang: 'fr', remoteModel: null });
  });
});

describe('exportChoices', () => {
  it('keeps the Export dialog choices and falls back per field on what is broken', () => {
    expect(DEFAULT_SETTINGS.exportChoices).toEqual({ formats: ['md'], pageBreaks: false, assets: true, folder: null });
    const kept = parseSettings({ exportChoices: { formats: ['md', 'tex', 'md'], pageBreaks: true, assets: false, folder: '/exports' } });
    expect(kept.exportChoices).toEqual({ formats: ['md', 'tex'], pageBreaks: true, assets: false, folder: '/exports' });
    expect(parseSettings({ exportChoices: { formats: ['pdf'], pageBreaks: 'yes' } }).exportChoices).toEqual({ formats: ['md'], pageBreaks: false, assets: true, folder: null });
    expect(parseSettings({ exportChoices: 'all' }).exportChoices).toEqual(DEFAULT_SETTINGS.exportChoices);
  });
});
