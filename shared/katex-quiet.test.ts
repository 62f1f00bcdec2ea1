import katex from 'katex';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { documentLatex } from './export/latex.js';
import { markdownToHtml } from './export/markdown-html.js';
import { KATEX_OPTIONS } from './katex-quiet.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('KaTeX without its terminal hooks', () => {
  it('prints nothing for \\message, \\errmessage, \\show or a strictness warning, through the exports and the preview', async () => {
    const log = vi.spyOn(console, 'log');
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    const math = '\\message{{"event":"document-done"}} \\errmessage{\u001b[2J} \\show\\x x é';
    katex.renderToString(math, { ...KATEX_OPTIONS, throwOnError: false });
    katex.renderToString('\\message{plain}', KATEX_OPTIONS);
    documentLatex([{ page: 1, markdown: `$${math}$` }], { title: 't', image: () => undefined });
    String(await markdownToHtml('htmlAndMathml').process(`$$${math}$$`));
    expect([...log.mock.calls, ...error.mock.calls, ...warn.mock.calls]).toEqual([]);
  });
});
