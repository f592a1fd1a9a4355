import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * `/{page}#{fieldKey}` (the error summary links there): the field is scrolled to and
 * focused once the page has rendered it.
 */
export function useFieldAnchor(ready: boolean): void {
  const { hash, pathname } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    const key = decodeURIComponent(hash.slice(1));
    const frame = requestAnimationFrame(() => {
      const container = document.querySelector<HTMLElement>(`[data-field-key="${CSS.escape(key)}"]`);
      const input = document.getElementById(key) ?? container?.querySelector<HTMLElement>('input, select, textarea, button');
      (container ?? input)?.scrollIntoView({ block: 'center' });
      input?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [hash, pathname, ready]);
}
