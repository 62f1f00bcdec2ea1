import { useEffect, useRef } from 'react';
import { useFolio } from '../state/store-context.js';

/**
 * The block of this page that a click on the page image asked to see, and a ref for the rendered
 * Markdown's container, which scrolls that block into view.
 */
export function useRevealedBlock(page: number) {
  const revealed = useFolio((state) => (state.revealedBlock?.page === page ? state.revealedBlock : null));
  const containerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (revealed) containerRef.current?.querySelector(`[data-block="${revealed.block}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [revealed]);
  return { revealed, containerRef };
}
