import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubSettings } from './hub-settings.js';

describe('the Hub settings, read as huggingface_hub reads them', () => {
  it('puts the cache at HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub', () => {
    expect(hubSettings({}, '/home/ada').cacheDir).toBe('/home/ada/.cache/huggingface/hub');
    expect(hubSettings({ XDG_CACHE_HOME: '/xdg' }, '/home/ada').cacheDir).toBe('/xdg/huggingface/hub');
    expect(hubSettings({ XDG_CACHE_HOME: '/xdg', HF_HOME: '~/hf' }, '/home/ada').cacheDir).toBe('/home/ada/hf/hub');
    expect(hubSettings({ HF_HOME: '/hf', HF_HUB_CACHE: '/big-disk/hub' }, '/home/ada').cacheDir).toBe('/big-disk/hub');
    expect(hubSettings({ HUGGINGFACE_HUB_CACHE: '/old-name' }, '/home/ada').cacheDir).toBe('/old-name');
  });

  it('takes the endpoint from HF_ENDPOINT without its trailing slash, and offline mode from HF_HUB_OFFLINE', () => {
    expect(hubSettings({}, '/h').endpoint).toBe('https://huggingface.co');
    expect(hubSettings({ HF_ENDPOINT: 'https://hf-mirror.example/' }, '/h').endpoint).toBe('https://hf-mirror.example');
    expect(hubSettings({ HF_HUB_OFFLINE: '1' }, '/h').offline).toBe(true);
    expect(hubSettings({ HF_HUB_OFFLINE: '0' }, '/h').offline).toBe(false);
  });

  it('takes the token from HF_TOKEN, else the token file under HF_HOME, and says where it came from', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'folio-hf-home-'));
    expect(hubSettings({ HF_HOME: home }, '/h').token).toBeUndefined();
    await writeFile(path.join(home, 'token'), 'hf_from_file\n');
    expect(hubSettings({ HF_HOME: home }, '/h').token).toEqual({ value: 'hf_from_file', source: path.join(home, 'token') });
    expect(hubSettings({ HF_HOME: home, HF_TOKEN: 'hf_from_env' }, '/h').token).toEqual({ value: 'hf_from_env', source: 'HF_TOKEN' });
    expect(hubSettings({ HF_HOME: home, HF_TOKEN: '' }, '/h').token?.source).toBe(path.join(home, 'token'));
    expect(hubSettings({ HF_HOME: home, HF_TOKEN_PATH: path.join(home, 'elsewhere') }, '/h').token).toBeUndefined();
  });
});
