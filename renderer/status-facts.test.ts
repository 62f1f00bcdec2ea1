import { describe, expect, it } from 'vitest';
import type { PageStats } from '../shared/page.js';
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

  it('says a text-layer page’s engine, device and time only', () => {
    expect(pageReadBy({ engine: 'text', device: 'cpu', timeMs: 420, chars: 3000 })).toEqual([
      { name: 'Engine', value: 'Text layer' },
      { name: 'Device', value: 'cpu' },
      { name: 'Time', value: '420 ms' },
    ]);
  });
});
