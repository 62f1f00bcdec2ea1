import { describe, expect, it } from 'vitest';
import type { DecodeStats, PageStats } from '../shared/page.js';
import { DEFAULT_SETTINGS } from '../shared/settings.js';
import { pageReadBy, settingsInUse } from './status-facts.js';

const appInfo = { version: '0.1.0', device: 'cpu', deviceReason: 'auto: cpu, the only device that answered (CUDA libraries not installed: libcudart.so.12 not found)' };

describe('settingsInUse', () => {
  it('names the remote server’s model and host for the remote engine, never the vision model or its device', () => {
    const remote = { ...DEFAULT_SETTINGS, engine: 'remote' as const, remoteServer: 'http://gpu-box:8000', remoteModel: 'jina-ocr-v1', modelDir: '/models/nano' };
    expect(settingsInUse(remote, 'nano demo', appInfo)).toEqual([
      { name: 'Engine', value: 'Remote server' },
      { name: 'Model', value: 'jina-ocr-v1' },
      { name: 'Server', value: 'gpu-box:8000', detail: 'http://gpu-box:8000' },
    ]);
  });

  it('names the package and the device with its reason for the vision model, and only the CPU for the text layer', () => {
    const vlm = { ...DEFAULT_SETTINGS, engine: 'vlm' as const, modelDir: '/models/nano' };
    expect(settingsInUse(vlm, 'nano demo', appInfo)).toEqual([
      { name: 'Engine', value: 'Vision model (VLM)' },
      { name: 'Model', value: 'nano demo' },
      { name: 'Device', value: 'cpu', detail: appInfo.deviceReason },
    ]);
    // in the remote engine's words for a missing model
    expect(settingsInUse({ ...vlm, modelDir: null }, 'nano demo', appInfo)[1]).toEqual({ name: 'Model', value: 'not set' });
    expect(settingsInUse({ ...vlm, engine: 'text' }, 'nano demo', appInfo)).toEqual([
      { name: 'Engine', value: 'Text layer' },
      { name: 'Device', value: 'cpu' },
    ]);
  });
});

describe('pageReadBy', () => {
  it('says a remote page’s model, server, time and token count, with no tokens/s', () => {
    const stats: PageStats = { engine: 'remote', device: 'jina-ocr-v1 at http://gpu-box:8000', model: 'jina-ocr-v1', timeMs: 41_300, chars: 900, tokens: 45 };
    expect(pageReadBy(stats)).toEqual([
      { name: 'Engine', value: 'Remote server' },
      { name: 'Model', value: 'jina-ocr-v1' },
      { name: 'Server', value: 'gpu-box:8000', detail: 'http://gpu-box:8000' },
      { name: 'Time', value: '41 s' },
      { name: 'Speed', value: '45 tokens' },
    ]);
  });

  it('says how many pages a vlm page decoded alongside and the rows a pass took, only when it shared its passes', () => {
    const decode = { tokensPerSecond: 21.34, newTokens: 900, tokensPerStep: 1, pagesTogether: { most: 4, mean: 3.62 }, rowsPerPass: 3.62 } as DecodeStats;
    const stats: PageStats = { engine: 'vlm', device: 'cpu', timeMs: 42_000, chars: 3000, decode };
    expect(pageReadBy(stats).find((fact) => fact.name === 'Speed')).toEqual({
      name: 'Speed',
      value: '21.3 tokens/s',
      detail: '900 tokens, 1.00 tokens per decoder step; decoded with other pages: 3.6 pages a pass on average, at most 4, 3.6 rows a pass',
    });
    const alone = { ...stats, decode: { ...decode, pagesTogether: { most: 1, mean: 1 }, rowsPerPass: 1 } };
    expect(pageReadBy(alone).find((fact) => fact.name === 'Speed')?.detail).toBe('900 tokens, 1.00 tokens per decoder step');
  });

  it('says a text-layer page’s engine, device and time only', () => {
    expect(pageReadBy({ engine: 'text', device: 'cpu', timeMs: 420, chars: 3000 })).toEqual([
      { name: 'Engine', value: 'Text layer' },
      { name: 'Device', value: 'cpu' },
      { name: 'Time', value: '420 ms' },
    ]);
  });
});
