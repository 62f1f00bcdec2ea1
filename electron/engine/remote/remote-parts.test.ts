import { describe, expect, it } from 'vitest';
import { isRetryableStatus, retryAfterMs } from '../../core/remote-server/attempt-error.js';
import { chatRequestBody } from '../../core/remote-server/chat-request.js';
import { ResumedText } from './resumed-text.js';
import { longestPageMs, retryDelayMs } from '../../core/remote-server/retry-delay.js';
import { messageOfBody } from '../../core/remote-server/server-message.js';
import { apiBase, shownServer } from '../../core/remote-server/server-url.js';

const options = { server: 'http://gpu:8000', concurrency: 4, timeoutMs: 1000, retries: 2, imageLongSide: 1024, imageFormat: 'png' as const, maxTokens: 4096 };

describe('remote request parts', () => {
  it('asks DeepSeek-OCR for grounded Markdown with its n-gram guard and special tokens kept', () => {
    const body = chatRequestBody({ ...options, model: 'deepseek-ai/DeepSeek-OCR' }, 'data:image/png;base64,AAAA');
    expect(body).toMatchObject({
      model: 'deepseek-ai/DeepSeek-OCR',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      max_tokens: 4096,
      skip_special_tokens: false,
      vllm_xargs: { ngram_size: 30, window_size: 90, whitelist_token_ids: [128821, 128822] },
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          { type: 'text', text: '<|grounding|>Convert the document to markdown.' },
        ],
      },
    ]);
  });

  it('asks jina-ocr-v1 with its own instruction and no extras, and lets the options replace both', () => {
    const jina = chatRequestBody({ ...options, model: 'jinaai/jina-ocr-v1' }, 'x');
    expect(JSON.stringify(jina.messages)).toContain('Transcribe the provided document image into a clean Markdown format');
    expect(jina).not.toHaveProperty('vllm_xargs');
    const custom = chatRequestBody({ ...options, model: 'deepseek-ai/DeepSeek-OCR', prompt: 'Free OCR.', extraBody: { top_k: 1 } }, 'x');
    expect(JSON.stringify(custom.messages)).toContain('Free OCR.');
    expect(custom).toMatchObject({ top_k: 1 });
    expect(custom).not.toHaveProperty('vllm_xargs');
  });

  it('finds the API under /v1 whether or not the address names it, and never shows credentials', () => {
    expect(apiBase('http://gpu:8000').href).toBe('http://gpu:8000/v1/');
    expect(apiBase('http://gpu:8000/v1/').href).toBe('http://gpu:8000/v1/');
    expect(apiBase('https://proxy.example/ocr').href).toBe('https://proxy.example/ocr/v1/');
    expect(shownServer(apiBase('http://user:secret@gpu:8000'))).toBe('http://gpu:8000/v1');
    expect(() => apiBase('gpu:8000')).toThrow(/http/);
  });

  it("reads vLLM's error bodies old and new, and plain-text ones from proxies", () => {
    expect(messageOfBody('{"error":{"message":"The model `x` does not exist.","type":"NotFoundError","param":null,"code":404}}')).toBe('The model `x` does not exist.');
    expect(messageOfBody('{"object":"error","message":"max_tokens is too large","type":"BadRequestError","param":null,"code":400}')).toBe('max_tokens is too large');
    expect(messageOfBody('<html><body><h1>502 Bad Gateway</h1></body></html>')).toBe('502 Bad Gateway');
  });

  it('retries 408, 429 and 5xx only, honouring Retry-After in seconds or as a date', () => {
    expect([400, 401, 404, 408, 422, 429, 500, 503].filter(isRetryableStatus)).toEqual([408, 429, 500, 503]);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryDelayMs(0, 1500)).toBe(1500);
    expect(retryDelayMs(3, undefined, () => 1)).toBe(4000);
    expect(retryDelayMs(3, undefined, () => 0)).toBe(2000);
    expect(retryDelayMs(20, undefined, () => 1)).toBe(30_000);
    expect(longestPageMs({ retries: 2, timeoutMs: 1000 })).toBe(3000 + 60_000);
  });

  it('passes on only what a retried stream adds past the text already shown', () => {
    const shown: string[] = [];
    const text = new ResumedText((delta) => shown.push(delta));
    text.newAttempt();
    ['# Ti', 'tle\n', 'Body '].forEach((delta) => text.push(delta));
    text.newAttempt();
    ['# Title', '\nBo', 'dy text', '.'].forEach((delta) => text.push(delta));
    expect(shown).toEqual(['# Ti', 'tle\n', 'Body ', 'text', '.']);
    expect(text.text).toBe('# Title\nBody text.');
    text.newAttempt();
    expect(() => text.push('# Other')).toThrow(/answered differently/);
  });
});
