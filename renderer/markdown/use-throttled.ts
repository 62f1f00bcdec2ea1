import { useEffect, useRef, useState } from 'react';

/**
 * `value`, changing at most once per `intervalMs`: a page streaming tokens re-renders its preview
 * a few times a second instead of on every delta. The last value always arrives.
 */
export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const lastShownAt = useRef(0);
  useEffect(() => {
    const wait = lastShownAt.current + intervalMs - performance.now();
    if (wait <= 0) {
      lastShownAt.current = performance.now();
      setShown(value);
      return;
    }
    const timer = setTimeout(() => {
      lastShownAt.current = performance.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, intervalMs]);
  return shown;
}
