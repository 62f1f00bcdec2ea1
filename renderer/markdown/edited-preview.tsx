import { memo, useMemo } from 'react';
import type { PageResult } from '../../shared/page.js';
import { useActions } from '../state/store-context.js';
import { linkEditedBlocks } from './edited-blocks.js';
import { renderMarkdown } from './render-markdown.js';
import { useRevealedBlock } from './use-revealed-block.js';

/**
 * An edited page rendered block by block, each block tied to the region on the page it came from
 * (edited-blocks.ts), so hover and click link the Markdown and the page after an edit as before.
 * Text the person added has no region and links to nothing.
 */
export const EditedPreview = memo(function EditedPreview({ result, markdown }: { result: PageResult; markdown: string }) {
  const { hoverBlock } = useActions();
  const { revealed, containerRef } = useRevealedBlock(result.page);
  const rendered = useMemo(
    () =>
      linkEditedBlocks(
        result.blocks.map((block) => block.markdown),
        markdown,
      ).map((block) => ({ ...block, html: renderMarkdown(block.markdown) })),
    [result, markdown],
  );
  return (
    <div ref={containerRef} className="markdown-body" onMouseLeave={() => hoverBlock(null)}>
      {rendered.map(({ block: region, html }, index) =>
        region === null ? (
          <div key={index} className="block unlinked" onMouseEnter={() => hoverBlock(null)} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <div
            key={index}
            className={revealed?.block === region ? 'block revealed' : 'block'}
            data-block={region}
            onMouseEnter={() => hoverBlock({ page: result.page, block: region })}
            dangerouslySetInnerHTML={{ __html: html }}
          />
        ),
      )}
    </div>
  );
});
