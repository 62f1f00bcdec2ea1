import { memo, useMemo } from 'react';
import type { PageResult } from '../../shared/page.js';
import { useActions } from '../state/store-context.js';
import { renderMarkdown } from './render-markdown.js';
import { useRevealedBlock } from './use-revealed-block.js';

/** The page's Markdown rendered in one piece: while it streams, or once the person edited it. */
export const MarkdownPreview = memo(function MarkdownPreview({ markdown }: { markdown: string }) {
  const html = useMemo(() => renderMarkdown(markdown), [markdown]);
  return <div className="markdown-body" dangerouslySetInnerHTML={{ __html: html }} />;
});

/**
 * The engine's finished page rendered block by block, so each block can be tied to its region on
 * the page: hovering outlines it there, and clicking the region scrolls here.
 */
export const BlockPreview = memo(function BlockPreview({ result }: { result: PageResult }) {
  const { hoverBlock } = useActions();
  const { revealed, containerRef } = useRevealedBlock(result.page);
  const rendered = useMemo(
    () => result.blocks.map((block, index) => ({ index, html: block.markdown.trim() === '' ? '' : renderMarkdown(block.markdown) })).filter((block) => block.html !== ''),
    [result],
  );
  return (
    <div ref={containerRef} className="markdown-body" onMouseLeave={() => hoverBlock(null)}>
      {rendered.map((block) => (
        <div
          key={block.index}
          className={revealed?.block === block.index ? 'block revealed' : 'block'}
          data-block={block.index}
          onMouseEnter={() => hoverBlock({ page: result.page, block: block.index })}
          dangerouslySetInnerHTML={{ __html: block.html }}
        />
      ))}
    </div>
  );
});
