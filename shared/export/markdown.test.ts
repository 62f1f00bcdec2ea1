import { describe, expect, it } from 'vitest';
import type { PageResult } from '../page.js';
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
    expect(documentMarkdown(pages, { ...noImages, pageMarkers: true })).toBe('<!-- page 1 -->\n\nFirst.\n\n<!-- page 2 -->\n\nThen $y$.\n');
  });

  it('gives an empty string for a document with no text', () => {
    expect(documentMarkdown([], noImages)).toBe('');
  });
});
