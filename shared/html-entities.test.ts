import { fromHtml } from 'hast-util-from-html';
import { describe, expect, it } from 'vitest';
import { decodeHtmlAttribute, decodeHtmlText, escapeHtmlAttribute, escapeHtmlText } from './html-entities.js';

const HOSTILE = `Tom & Jerry's "best" <script>alert(1)</script> &amp; a&lt;b`;

describe('escaping', () => {
  it('escapes in text only what could start markup, leaving quotes as they are', () => {
    expect(escapeHtmlText(HOSTILE)).toBe(`Tom &amp; Jerry's "best" &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; a&amp;lt;b`);
  });

  it('escapes in an attribute both quote marks as well, so either quote holds the value', () => {
    expect(escapeHtmlAttribute(HOSTILE)).toBe(
      'Tom &amp; Jerry&#39;s &quot;best&quot; &lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; a&amp;lt;b',
    );
  });

  it('reads back through an HTML parser as the same characters, in text and in either quoted attribute', () => {
    const html = `<p title="${escapeHtmlAttribute(HOSTILE)}" lang='${escapeHtmlAttribute(HOSTILE)}'>${escapeHtmlText(HOSTILE)}</p>`;
    const [paragraph] = fromHtml(html, { fragment: true }).children;
    if (paragraph?.type !== 'element') throw new Error('no paragraph parsed');
    expect(paragraph.children).toEqual([expect.objectContaining({ type: 'text', value: HOSTILE })]);
    expect(paragraph.properties).toEqual({ title: HOSTILE, lang: HOSTILE });
  });

  it('round-trips through its own decoder', () => {
    expect(decodeHtmlText(escapeHtmlText(HOSTILE))).toBe(HOSTILE);
    expect(decodeHtmlAttribute(escapeHtmlAttribute(HOSTILE))).toBe(HOSTILE);
  });
});

describe('decoding', () => {
  it('reads named references from the whole HTML list, not only the XML five', () => {
    expect(decodeHtmlText('&lt;&gt;&amp;&quot;&apos;&nbsp;&eacute;&mdash;&hellip;&Tab;')).toBe('<>&"\'\u00a0é—…\t');
  });

  it('reads decimal and hexadecimal references, with or without the semicolon', () => {
    expect(decodeHtmlText('&#65;&#x42;&#X43;&#68 &#x1F600;')).toBe('ABCD 😀');
  });

  it('turns a reference to no character (past U+10FFFF, or NUL) into U+FFFD, as a browser does', () => {
    expect(decodeHtmlText('&#x110000;&#0;')).toBe('\ufffd\ufffd');
  });

  it('leaves an unknown name as written, reading a legacy name at its start as a browser does', () => {
    expect(decodeHtmlText('&bogus; & alone')).toBe('&bogus; & alone');
    expect(decodeHtmlText('&notanentity;')).toBe('¬anentity;');
  });

  it('judges a scheme hidden behind references as the browser reads it', () => {
    expect(decodeHtmlAttribute('jav&#x61;script&colon;alert(1)')).toBe('javascript:alert(1)');
    expect(decodeHtmlAttribute('java&Tab;script:x')).toBe('java\tscript:x');
  });

  it('keeps a legacy reference without `;` in an attribute where it could be a query parameter', () => {
    expect(decodeHtmlAttribute('?a=1&copy=2&not=3')).toBe('?a=1&copy=2&not=3');
    expect(decodeHtmlText('?a=1&copy=2')).toBe('?a=1©=2');
  });
});
