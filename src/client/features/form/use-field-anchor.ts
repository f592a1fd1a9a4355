import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { form } from '../../../shared/form/form-model-data.ts';

/** How long the page may take to render the field (a lazy block, the school search). */
const WAIT_FRAMES = 60;

/** The control a field's link leads to: the input itself, the chosen radio, or the first control of a group. */
function controlOf(key: string): HTMLElement | null {
  const container = document.querySelector<HTMLElement>(`[data-field-key="${CSS.escape(key)}"]`);
  const checked = container?.querySelector<HTMLElement>('input[type="radio"]:checked');
  return checked ?? document.getElementById(key) ?? container?.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]') ?? null;
}

/**
 * `/{page}#{fieldKey}` (the error summary links there): the field is scrolled to and
 * focused once the page has rendered it, also when the same link is followed again.
 */
export function useFieldAnchor(ready: boolean): void {
  const { hash, key: locationKey } = useLocation();
  useEffect(() => {
    if (!ready || !hash) return;
    const key = decodeURIComponent(hash.slice(1));
    // only a question's key: '#main' (the skip link) is the browser's to follow, at once and at the top
    if (!form.fields[key]) return;
    let frames = 0;
    let handle = 0;
    const step = () => {
      const input = controlOf(key);
      if (!input) {
        if (++frames < WAIT_FRAMES) handle = requestAnimationFrame(step);
        return;
      }
      const container = document.querySelector<HTMLElement>(`[data-field-key="${CSS.escape(key)}"]`);
      (container ?? input).scrollIntoView({ block: 'center' });
      input.focus({ preventScroll: true });
    };
    handle = requestAnimationFrame(step);
    return () => cancelAnimationFrame(handle);
  }, [hash, locationKey, ready]);
}
