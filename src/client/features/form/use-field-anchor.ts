import { useEffect } from 'react';
import { useLocation } from '../../lib/routing.tsx';
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
 * The tab that holds a field's question when another tab of its group is chosen (Class 1
 * while the transcript tab is open): the link leads there, to the tab the applicant can choose.
 */
function tabHolding(key: string): HTMLElement | null {
  const page = form.fields[key]?.page;
  for (const group of page ? form.pages[page].tabs : []) {
    const tab = group.tabs.find((item) => item.keys.includes(key));
    const element = tab && document.getElementById(`${group.tab_id}-tab-${tab.id}`);
    if (element && element.getAttribute('aria-selected') !== 'true') return element;
  }
  return null;
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
      const input = controlOf(key) ?? tabHolding(key);
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
