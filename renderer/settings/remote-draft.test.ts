import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings.js';
import { remoteDraft, remotePatch, serverProblem } from './remote-draft.js';

describe('remote draft', () => {
  it('turns typed fields into the settings that changed, trimmed', () => {
    const draft = { ...remoteDraft(DEFAULT_SETTINGS), server: ' http://gpu-box:8000 ', model: 'test-ocr', concurrency: '4', timeoutS: '60' };
    expect(remotePatch(draft, DEFAULT_SETTINGS)).toEqual({ remoteServer: 'http://gpu-box:8000', remoteModel: 'test-ocr', remoteConcurrency: 4, remoteTimeoutS: 60 });
  });

  it('keeps the saved value for a field typed out of range or not an address', () => {
    const settings = { ...DEFAULT_SETTINGS, remoteServer: 'http://gpu-box:8000', remoteConcurrency: 8 };
    const draft = { ...remoteDraft(settings), server: 'gpu box', concurrency: '0', imageSide: '12.5' };
    expect(remotePatch(draft, settings)).toEqual({});
  });

  it('clears the server when its field is emptied', () => {
    const settings = { ...DEFAULT_SETTINGS, remoteServer: 'http://gpu-box:8000', remoteModel: 'm' };
    expect(remotePatch({ ...remoteDraft(settings), server: ' ', model: '' }, settings)).toEqual({ remoteServer: null, remoteModel: null });
  });

  it('says what is wrong with a typed address, and nothing for an empty or good one', () => {
    expect(serverProblem('gpu-box:8000 x')).toMatch(/http\(s\) address/);
    expect(serverProblem('ftp://gpu-box')).toMatch(/http\(s\) address/);
    // no scheme typed: plain http is meant, as in a browser's address bar
    expect(serverProblem('localhost:8765')).toBeUndefined();
    expect(serverProblem('https://me:pw@gpu-box')).toMatch(/without a user or password/);
    expect(serverProblem('')).toBeUndefined();
    expect(serverProblem('https://gpu-box/v1')).toBeUndefined();
  });
});
