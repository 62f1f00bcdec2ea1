import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { documentDocx } from './docx.js';
import { SAMPLE_PAGES } from './export-sample.js';

const noImages = () => undefined;

async function parts(pages: readonly { page: number; markdown: string }[]) {
  const { data, warnings } = await documentDocx(pages, { title: 'Report', image: noImages });
  const files = unzipSync(data);
  return { files, document: strFromU8(files['word/document.xml']!), warnings };
}

describe('documentDocx', () => {
  it('writes the parts Word needs, with tables, merged cells, equations, lists and footnotes', async () => {
    const { files, document, warnings } = await parts(SAMPLE_PAGES);
    expect(warnings).toEqual([]);
    expect(strFromU8(files['[Content_Types].xml']!)).toContain('wordprocessingml.document.main+xml');
    expect(strFromU8(files['word/_rels/document.xml.rels']!)).toContain('footnotes.xml');
    expect(document).toContain('<w:tbl>');
    expect(document).toContain('<w:gridSpan w:val="2"/>');
    expect(document).toContain('<w:vMerge w:val="restart"/>');
    expect(document).toContain('<w:vMerge w:val="continue"/>');
    expect(document).toContain('<w:tblHeader/>');
    expect(document.match(/<m:oMath>/g)).toHaveLength(2);
    expect(document).toMatch(/<m:sSup><m:e><m:r><m:t xml:space="preserve">c<\/m:t><\/m:r><\/m:e><m:sup>/);
    expect(document).toMatch(/<m:nary><m:naryPr><m:chr m:val="∑"\/><m:limLoc m:val="undOvr"\/><\/m:naryPr><m:sub>/);
    expect(document).toMatch(/<m:d><m:dPr><m:begChr m:val="\("\/><m:endChr m:val="\)"\/><\/m:dPr>/);
    expect(document).toContain('<m:f><m:num>');
    expect(document).toMatch(/<w:i\/>.*rose/);
    expect(document).toContain('<w:numPr>');
    expect(document).toContain('<w:footnoteReference w:id="1"/>');
    expect(strFromU8(files['word/footnotes.xml']!)).toContain('Figures from the regional office.');
    expect(document).toContain('<w:pStyle w:val="Heading1"/>');
  });

  it('keeps what a page says as text: no markup gets through, and the script is dropped as in the HTML export', async () => {
    const { document } = await parts([{ page: 1, markdown: 'A <b>bold</b> claim & <w:p>fake</w:p> and <img src=x onerror=alert(1)>\n\n<script>alert(2)</script>' }]);
    expect(document).toContain('fake');
    expect(document).not.toContain('<w:p>fake');
    expect(document).toContain('&amp;');
    expect(document).not.toContain('alert');
  });

  it('warns, naming the page, for a formula KaTeX rejects, a span that overflows and a missing image, and exports the rest', async () => {
    const { document, warnings } = await parts([
      { page: 1, markdown: 'Fine $x$ text.' },
      { page: 2, markdown: 'Broken $\\frac{$ here.\n\n<table><tr><td rowspan="5">a</td><td colspan="9">b</td></tr><tr><td>c</td></tr></table>\n\n![Chart](assets/gone.png)' },
    ]);
    expect(warnings.map((warning) => warning.page)).toEqual([2, 2, 2, 2]);
    expect(warnings[0]!.message).toMatch(/^the formula "\\frac\{" is not valid LaTeX/);
    expect(warnings.some((warning) => /spans 5 rows but only 2 remain/.test(warning.message))).toBe(true);
    expect(warnings.some((warning) => /spans 9 columns/.test(warning.message))).toBe(true);
    expect(warnings[3]!.message).toMatch(/image "assets\/gone.png" is not among the exported figures/);
    expect(document).toContain('\\frac{');
    expect(document).toContain('[Chart]');
    expect(document).toContain('<m:oMath>');
    expect(document).toContain('<w:tbl>');
  });

  it('embeds an exported figure at its size on the page', async () => {
    const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
    const image = (src: string) => (src === 'r_assets/p.png' ? { path: src, data: png, width: 72, height: 36 } : undefined);
    const { data, warnings } = await documentDocx([{ page: 1, markdown: '![Logo](r_assets/p.png)' }], { title: 'T', image });
    const files = unzipSync(data);
    expect(warnings).toEqual([]);
    expect(Object.keys(files).some((name) => name.startsWith('word/media/'))).toBe(true);
    // 72 points = 96 px = 914400 EMU
    expect(strFromU8(files['word/document.xml']!)).toContain('cx="914400" cy="457200"');
  });
});
