import { describe, expect, it } from 'vitest';
import type { PageResult } from '../page.js';
import type { PageFailure } from '../failure.js';
import { documentJson } from './json.js';

const imageBytes = Uint8Array.from({ length: 64 }, (_, i) => (i * 37) % 256);

const closingPage: PageResult = {
  page: 3,
  width: 612,
  height: 792,
  markdown: 'Closing words.',
  blocks: [{ kind: 'paragraph', bbox: [72, 100, 540, 120], markdown: 'Closing words.' }],
  images: [],
  stats: { engine: 'text', device: 'cpu', timeMs: 2, chars: 14 },
};
const pages: PageResult[] = [
  closingPage,
  {
    page: 1,
    width: 595.2760009765625,
    height: 841.8900146484375,
    markdown: '# Results\n\n![](folio-image:page-1-image-1.png)',
    blocks: [
      { kind: 'heading', bbox: [72.00000000001, 60.5, 300.123456, 84], markdown: '# Results', level: 1 },
      { kind: 'image', bbox: [72, 100, 300, 250], markdown: '![](folio-image:page-1-image-1.png)' },
      { kind: 'footer', bbox: [290, 800, 310, 812], markdown: '' },
    ],
    images: [{ name: 'page-1-image-1.png', bbox: [72, 100, 300, 250], mime: 'image/png', data: imageBytes }],
    stats: { engine: 'text', device: 'cpu', reason: 'page has a text layer', timeMs: 12.6, chars: 45 },
  },
];
const failures: PageFailure[] = [
  { page: 2, failure: { code: 'timeout', message: 'Page 2 took longer than 30 s; try --engine text or split the file.' } },
];
const doc = { file: '/home/ana/Documents/private/report.pdf', info: { pageCount: 3, title: 'Annual report' } };

describe('documentJson', () => {
  const text = documentJson(doc, pages, failures);
  const parsed: unknown = JSON.parse(text);

  it('round-trips to the document: pages in order with their blocks, image names and stats', () => {
    expect(parsed).toEqual({
      format: 'folio-document',
      version: 1,
      file: 'report.pdf',
      info: { pageCount: 3, title: 'Annual report' },
      pages: [
        {
          page: 1,
          width: 595.28,
          height: 841.89,
          markdown: '# Results\n\n![](folio-image:page-1-image-1.png)',
          blocks: [
            { kind: 'heading', bbox: [72, 60.5, 300.12, 84], markdown: '# Results', level: 1 },
            { kind: 'image', bbox: [72, 100, 300, 250], markdown: '![](folio-image:page-1-image-1.png)' },
            { kind: 'footer', bbox: [290, 800, 310, 812], markdown: '' },
          ],
          images: ['page-1-image-1.png'],
          stats: { engine: 'text', device: 'cpu', reason: 'page has a text layer', timeMs: 13, chars: 45 },
        },
        {
          page: 3,
          width: 612,
          height: 792,
          markdown: 'Closing words.',
          blocks: [{ kind: 'paragraph', bbox: [72, 100, 540, 120], markdown: 'Closing words.' }],
          images: [],
          stats: { engine: 'text', device: 'cpu', timeMs: 2, chars: 14 },
        },
      ],
      failures,
    });
  });

  it('never carries image bytes', () => {
    expect(text).not.toContain('"data"');
    expect(text).not.toContain(btoa(String.fromCharCode(...imageBytes)));
    expect(text).not.toContain([...imageBytes.slice(0, 8)].join(',\n'));
  });

  it('keeps only the file name, not the folders it sits in', () => {
    expect(text).not.toContain('/home/ana');
    expect(JSON.parse(documentJson({ ...doc, file: 'C:\\Users\\ana\\scan.pdf' }, [], []))).toMatchObject({ file: 'scan.pdf' });
  });

  it('writes keys in a fixed order, pretty-printed, whatever order the input objects had', () => {
    const shuffled: PageResult = {
      stats: { chars: 14, timeMs: 2, device: 'cpu', engine: 'text' },
      images: [],
      blocks: [{ markdown: 'Closing words.', bbox: [72, 100, 540, 120], kind: 'paragraph' }],
      markdown: 'Closing words.',
      height: 792,
      width: 612,
      page: 3,
    };
    expect(documentJson(doc, [shuffled], [])).toBe(documentJson(doc, [closingPage], []));
    expect(text.split('\n')[1]).toBe('  "format": "folio-document",');
  });
});

describe('documentJson for a model-read page', () => {
  it('carries the decoding record, the OCR confidence and the review flags', () => {
    const decode = {
      model: 'jina-ocr-v1', mode: 'gundam', visualTokens: 273, promptTokens: 290, newTokens: 812, steps: 301, tokensPerStep: 2.7,
      specKSetting: 'auto' as const, specK: 3, stepsAtK: [0, 0, 0, 300, 0], acceptance: [0.9, 0.8, 0.7], visionMs: 2000, visionOnThread: true, visionWaitMs: 300, visionOverlapMs: 1800, laneWaitMs: 40,
      prefillMs: 120.4, decodeMs: 8100.6,
      tokensPerSecond: 100.24, cacheBytes: 1 << 20, provider: 'webgpu', precision: 'fp16' as const, cacheResident: true, hostBytesPerStep: 48,
      pagesTogether: { most: 3, mean: 2.5 }, rowsPerPass: 7.5, skippedIds: [129279], stopped: 'repetition' as const,
    };
    const read: PageResult = { ...closingPage, stats: { engine: 'vlm', device: 'cuda:0', timeMs: 8300, chars: 14, decode, flags: ['repetition'] } };
    const stats = (JSON.parse(documentJson(doc, [read], [])) as { pages: { stats: Record<string, unknown> }[] }).pages[0]?.stats;
    expect(stats?.flags).toEqual(['repetition']);
    const unsure: PageResult = { ...closingPage, stats: { engine: 'lite', device: 'cpu', timeMs: 900, chars: 14, confidence: 0.673, flags: ['low-confidence'] } };
    const unsureStats = (JSON.parse(documentJson(doc, [unsure], [])) as { pages: { stats: Record<string, unknown> }[] }).pages[0]?.stats;
    expect(unsureStats).toMatchObject({ confidence: 0.673, flags: ['low-confidence'] });
    expect(stats?.decode).toEqual({ ...decode, prefillMs: 120, decodeMs: 8101, tokensPerSecond: 100.2 });
  });
});
