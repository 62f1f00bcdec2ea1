import { describe, expect, it } from 'vitest';
import { formatBytes, installFolderName, licenceTerms, parseRepoReference, transferText } from './model-library.js';

describe('the model library’s words', () => {
  it('reads a repo id with its revision, and refuses what is not one', () => {
    expect(parseRepoReference('jinaai/jina-ocr-v1')).toEqual({ repo: 'jinaai/jina-ocr-v1', revision: undefined });
    expect(parseRepoReference('deepseek-ai/DeepSeek-OCR@refs/pr/3')).toEqual({ repo: 'deepseek-ai/DeepSeek-OCR', revision: 'refs/pr/3' });
    for (const text of ['jina-ocr-v1', '/home/me/models/x', 'a/b/c', '../x', 'a/..']) expect(parseRepoReference(text), text).toBeUndefined();
  });

  it('names licences as a person reads them', () => {
    expect(licenceTerms('cc-by-nc-4.0')).toMatchObject({ name: 'CC BY-NC 4.0', summary: 'non-commercial use only' });
    expect(licenceTerms('MIT').name).toBe('MIT');
    expect(licenceTerms('other')).toEqual({ name: 'other', summary: "read its terms on the model's page" });
    expect(licenceTerms(undefined).summary).toMatch(/names no licence/);
  });

  it('says a download’s progress in bytes, rate and time left', () => {
    expect(transferText({ doneBytes: 1.2e9, totalBytes: 6.67e9, bytesPerSecond: 85.2e6, secondsLeft: 64.2 })).toBe('1.20 GB of 6.67 GB, 85.2 MB/s, 1:05 left');
    expect(transferText({ doneBytes: 0, totalBytes: 3_119_408, bytesPerSecond: 0, secondsLeft: undefined })).toBe('0 bytes of 3.1 MB');
    expect(transferText({ doneBytes: 5e9, totalBytes: 6e9, bytesPerSecond: 1e5, secondsLeft: 10_000 })).toBe('5.00 GB of 6.00 GB, 100 kB/s, 2:46:40 left');
    expect(formatBytes(999)).toBe('999 bytes');
  });

  it('installs each repo and precision in a folder of its own', () => {
    expect(installFolderName('jinaai/jina-ocr-v1', 'int4')).toBe('jinaai--jina-ocr-v1--int4');
  });
});
