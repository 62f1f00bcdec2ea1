import type { PageResult } from '../../shared/page.js';
import { useActions, useFolio } from '../state/store-context.js';

/**
 * The page's blocks as regions over its picture: the one hovered in the Markdown is outlined, and
 * clicking a region scrolls the Markdown to its block.
 */
export function PageOverlay({ result, scale }: { result: PageResult; scale: number }) {
  const { revealBlock, hoverBlock } = useActions();
  const hovered = useFolio((state) => (state.hoveredBlock?.page === result.page ? state.hoveredBlock.block : null));
  return (
    <div className="page-overlay">
      {result.blocks.map((block, index) =>
        block.markdown.trim() === '' ? null : (
          <button
            type="button"
            key={index}
            data-block={index}
            className={index === hovered ? 'block-region hovered' : 'block-region'}
            style={{
              left: block.bbox[0] * scale,
              top: block.bbox[1] * scale,
              width: Math.max(2, (block.bbox[2] - block.bbox[0]) * scale),
              height: Math.max(2, (block.bbox[3] - block.bbox[1]) * scale),
            }}
            aria-label={`Show the ${block.kind} on page ${result.page} in the Markdown`}
            tabIndex={-1}
            onClick={() => revealBlock({ page: result.page, block: index })}
            onMouseEnter={() => hoverBlock({ page: result.page, block: index })}
            onMouseLeave={() => hoverBlock(null)}
          />
        ),
      )}
    </div>
  );
}
