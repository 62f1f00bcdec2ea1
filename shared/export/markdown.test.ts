import { describe, expect, it } from 'vitest';
import type { PageResult } from '../page.js';
import { documentHtml } from './html.js';
import { documentMarkdown } from './markdown.js';

function page(number: number, markdown: string): PageResult {
  return {
    page: number,
    width: 612,
    height: 792,
    markdown,
    blocks: [],
    images: [],
    stats: { engine: 'text', device: 'cpu', timeMs: 3, chars: markdown.length },
  };
}

const noImages = { resolveImage: () => undefined };

describe('documentMarkdown', () => {
  it('joins pages in page order with exactly one blank line and ends with a newline', () => {
    const pages = [page(2, '\nSecond page.\n\n'), page(1, '# Title\n\nFirst page.\n')];
    expect(documentMarkdown(pages, noImages)).toBe('# Title\n\nFirst page.\n\nSecond page.\n');
  });

  it('skips pages with no text instead of leaving runs of blank lines', () => {
    const pages = [page(1, 'One.'), page(2, '  \n'), page(3, 'Three.')];
    expect(documentMarkdown(pages, noImages)).toBe('One.\n\nThree.\n');
  });

  it('rewrites image links with the page each image came from', () => {
    const pages = [page(1, 'Text.'), page(4, '![](folio-image:page-4-image-1.png)')];
    expect(documentMarkdown(pages, noImages)).toBe('Text.\n\n(image on page 4, not exported)\n');
    expect(documentMarkdown(pages, { resolveImage: (name) => `assets/${name}` })).toBe(
      'Text.\n\n![](assets/page-4-image-1.png)\n',
    );
  });

  it('marks pages when asked and writes math with dollars', () => {
    const pages = [page(2, 'Then \\(y\\).'), page(1, 'First.')];
    expect(documentMarkdown(pages, { ...noImages, pageMarkers: true })).toBe('<!-- page 1 -->\n*Page 1*\n\nFirst.\n\n---\n\n<!-- page 2 -->\n*Page 2*\n\nThen $y$.\n');
  });

  it('marks each lost page where it was, one line for a run lost for one reason, its reason kept as text', () => {
    const pages = [page(1, 'One.'), page(3, 'Three.'), page(7, 'Seven.')];
    const failures = [
      { page: 2, failure: { code: 'engine-crashed' as const, message: 'the engine crashed while reading it (exit code 70: <img src=x onerror=alert(1)> [x](javascript:y) \\(a\\)).' } },
      { page: 4, failure: { code: 'engine-crashed' as const, message: 'not tried: the engine crashed while opening the file, 4 times in a row (last: signal SIGKILL).' } },
      { page: 5, failure: { code: 'engine-crashed' as const, message: 'not tried: the engine crashed while opening the file, 4 times in a row (last: signal SIGKILL).' } },
      { page: 6, failure: { code: 'timeout' as const, message: 'took longer than 60 s, so its engine was stopped' } },
    ];
    const markdown = documentMarkdown(pages, { ...noImages, failures });
    expect(markdown).toBe(
      [
        'One.',
        '> **Page 2 could not be converted:** the engine crashed while reading it (exit code 70: \\<img src=x onerror=alert(1)\\> &#91;x](javascript:y) \\\\(a\\\\)).',
        'Three.',
        '> **Pages 4 to 5 could not be converted:** not tried: the engine crashed while opening the file, 4 times in a row (last: signal SIGKILL).',
        '> **Page 6 could not be converted:** took longer than 60 s, so its engine was stopped.',
        'Seven.',
      ].join('\n\n') + '\n',
    );
    const html = documentHtml(markdown, { title: 'lost', mathCss: '' });
    expect(html).toContain('<strong>Page 2 could not be converted:</strong> the engine crashed while reading it (exit code 70: &#x3C;img src=x onerror=alert(1)> [x](javascript:y) \\(a\\)).');
    expect(html.slice(html.indexOf('<main>'))).not.toMatch(/<img|<a |katex/);
  });

  it('gives an empty string for a document with no text', () => {
    expect(documentMarkdown([], noImages)).toBe('');
  });
});
