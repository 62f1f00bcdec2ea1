import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from './settings.js';

describe('settings', () => {
  it('fills defaults and keeps the valid fields of a damaged settings file', () => {
    expect(parseSettings(null)).toEqual(DEFAULT_SETTINGS);
    const parsed = parseSettings({ engine: 'warp', specK: 2, maxNewTokens: -5, theme: 'dark', modelDir: '/models/jina', extra: true });
    expect(parsed).toEqual({ ...DEFAULT_SETTINGS, specK: 2, theme: 'dark', modelDir: '/models/jina' });
  });
});
