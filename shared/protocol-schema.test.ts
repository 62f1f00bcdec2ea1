import { describe, expect, it } from 'vitest';
import { parseHostRequest } from './protocol-schema.js';
import { DEFAULT_CONVERT_OPTIONS, type HostRequest } from './protocol.js';

const vlm = { modelDir: '/models/m', specK: 'auto', mode: 'markdown', maxNewTokens: 512, device: 'cuda:1', calibrationDir: '/c', pagesInFlight: 4, documentPages: 10 } as const;
const remote = {
  server: 'http://gpu:8000',
  model: 'olmocr',
  concurrency: 8,
  timeoutMs: 1500.5,
  retries: 2,
  imageLongSide: 1288,
  imageFormat: 'png',
  maxTokens: 4096,
  prompt: 'Read it.',
  extraBody: { temperature: 0, nested: { a: [1] } },
} as const;

const VALID: HostRequest[] = [
  { type: 'open', docId: 'd1', path: '/a.pdf' },
  { type: 'open', docId: 'd1', path: '/a.pdf', password: '' },
  { type: 'convert', docId: 'd1', pages: [], options: DEFAULT_CONVERT_OPTIONS },
  { type: 'convert', docId: 'd1', pages: [1, 2, 9], options: { engine: 'auto', keepHeaders: true, extractImages: true, vlm, lang: 'fr', remote } },
  { type: 'convert', docId: 'd1', pages: [3], options: { engine: 'vlm', keepHeaders: false, extractImages: false, vlm: { modelDir: 'm', specK: 0, maxNewTokens: 1, pagesInFlight: 'auto' } } },
  { type: 'cancel', docId: 'd1' },
  { type: 'close', docId: 'x'.repeat(200) },
  { type: 'render', docId: 'd1', page: 1, longSide: 16 },
  { type: 'probe-device' },
  { type: 'probe-device', device: 'auto', modelDir: '/m', calibrationDir: '/c' },
];

/** Each with the path its rejection must name. */
const INVALID: [unknown, string][] = [
  ['open please', 'message'],
  [null, 'message'],
  [[], 'message'],
  [{ type: 'delete', docId: 'd1' }, 'type'],
  [{ docId: 'd1' }, 'type'],
  [{ type: 'open', docId: '', path: '/a.pdf' }, 'docId'],
  [{ type: 'open', docId: 'x'.repeat(201), path: '/a.pdf' }, 'docId'],
  [{ type: 'open', docId: 'd1' }, 'path'],
  [{ type: 'open', docId: 'd1', path: '/a.pdf', password: 7 }, 'password'],
  [{ type: 'convert', docId: 'd1', pages: [0], options: DEFAULT_CONVERT_OPTIONS }, 'pages.0'],
  [{ type: 'convert', docId: 'd1', pages: [1, 1.5], options: DEFAULT_CONVERT_OPTIONS }, 'pages.1'],
  [{ type: 'convert', docId: 'd1', pages: [2 ** 53], options: DEFAULT_CONVERT_OPTIONS }, 'pages.0'],
  [{ type: 'convert', docId: 'd1', pages: '1', options: DEFAULT_CONVERT_OPTIONS }, 'pages'],
  [{ type: 'convert', docId: 'd1', pages: [1] }, 'options'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, engine: 'magic' } }, 'options.engine'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { engine: 'text', keepHeaders: 'yes', extractImages: false } }, 'options.keepHeaders'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { engine: 'text', keepHeaders: false } }, 'options.extractImages'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, lang: 'de' } }, 'options.lang'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, vlm: { ...vlm, specK: -1 } } }, 'options.vlm.specK'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, vlm: { ...vlm, device: 'tpu' } } }, 'options.vlm.device'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, vlm: { ...vlm, pagesInFlight: 0 } } }, 'options.vlm.pagesInFlight'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, vlm: { ...vlm, modelDir: '' } } }, 'options.vlm.modelDir'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote: { ...remote, timeoutMs: 0 } } }, 'options.remote.timeoutMs'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote: { ...remote, timeoutMs: Infinity } } }, 'options.remote.timeoutMs'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote: { ...remote, concurrency: 1025 } } }, 'options.remote.concurrency'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote: { ...remote, imageFormat: 'gif' } } }, 'options.remote.imageFormat'],
  [{ type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote: { ...remote, extraBody: [1] } } }, 'options.remote.extraBody'],
  [{ type: 'render', docId: 'd1', page: 1, longSide: 8193 }, 'longSide'],
  [{ type: 'render', docId: 'd1', page: 0, longSide: 100 }, 'page'],
  [{ type: 'probe-device', device: 'gpu please' }, 'device'],
  [{ type: 'probe-device', modelDir: '' }, 'modelDir'],
];

describe("the engine host's request check", () => {
  it('passes every well-formed request through as it was sent', () => {
    for (const request of VALID) expect(parseHostRequest(structuredClone(request))).toEqual({ ok: true, request });
  });

  it('keeps only the keys a request has, as fresh objects', () => {
    const sent = { type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote, surprise: 1 }, extra: 'x' };
    const parsed = parseHostRequest(sent);
    expect(parsed).toEqual({ ok: true, request: { type: 'convert', docId: 'd1', pages: [1], options: { ...DEFAULT_CONVERT_OPTIONS, remote } } });
    const request = parsed.ok && parsed.request.type === 'convert' ? parsed.request : undefined;
    expect(request?.options).not.toBe(sent.options);
    expect(request?.options.remote?.extraBody).not.toBe(remote.extraBody);
  });

  it('rejects a malformed request, naming the field that is wrong and the document when it can', () => {
    for (const [message, path] of INVALID) {
      const parsed = parseHostRequest(message);
      expect(parsed.ok, JSON.stringify(message)).toBe(false);
      if (parsed.ok) continue;
      expect(parsed.message).toMatch(/^Malformed request to the engine host \(/);
      expect(parsed.message).toContain(`(${path}: `);
      const docId = (message as { docId?: unknown } | null)?.docId;
      expect(parsed.docId).toBe(typeof docId === 'string' ? docId : undefined);
    }
  });
});
