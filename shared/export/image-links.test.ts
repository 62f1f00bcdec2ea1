import { describe, expect, it } from 'vitest';
import { rewriteImageLinks } from './image-links.js';

const written = new Map([
  ['page-2-image-1.png', 'report_assets/page-2-image-1.png'],
  ['page-2-image-2.png', 'my report (final)_assets/page-2-image-2.png'],
]);
const resolve = (name: string) => written.get(name);

describe('rewriteImageLinks', () => {
  it('points a Markdown image at the path its file was written to, keeping the alt text', () => {
    expect(rewriteImageLinks('Before\n\n![Figure 1](folio-image:page-2-image-1.png)\n', 2, resolve)).toBe(
      'Before\n\n![Figure 1](report_assets/page-2-image-1.png)\n',
    );
  });

  it('wraps a path holding spaces or parentheses in angle brackets so the link stays whole', () => {
    expect(rewriteImageLinks('![](folio-image:page-2-image-2.png)', 2, resolve)).toBe(
      '![](<my report (final)_assets/page-2-image-2.png>)',
    );
  });

  it('turns an image that was not written into a plain-text note naming its page, not a link', () => {
    expect(rewriteImageLinks('![](folio-image:page-5-image-3.png)', 5, resolve)).toBe('(image on page 5, not exported)');
    expect(rewriteImageLinks('See ![Chart](folio-image:page-5-image-3.png) here', 5, resolve)).toBe(
      'See (image on page 5, not exported: Chart) here',
    );
  });

  it('keeps markup in a not-written image description as text', () => {
    const note = rewriteImageLinks('![*bold* (x) <b> _y_](folio-image:gone.png)', 3, resolve);
    expect(note).toBe(String.raw`(image on page 3, not exported: \*bold\* \(x\) \<b\> \_y\_)`);
  });

  it('rewrites images inside HTML table cells too, a not-written one as a note', () => {
    const cell = '<td><img src="folio-image:page-2-image-1.png" alt="logo"></td><td><img alt="a &lt;b&gt; seal" src="folio-image:gone.png"></td>';
    expect(rewriteImageLinks(cell, 2, resolve)).toBe(
      '<td><img src="report_assets/page-2-image-1.png" alt="logo"></td><td>(image on page 2, not exported: a &lt;b&gt; seal)</td>',
    );
  });

  it('leaves ordinary links and images alone', () => {
    const markdown = '![photo](https://example.org/a.png) and [folio-image:x](folio-image-notes.md)';
    expect(rewriteImageLinks(markdown, 1, resolve)).toBe(markdown);
  });
});
