import type { AnswerValue } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';

/**
 * A form page the server drew (src/server/render/) can be typed into before its scripts
 * have arrived, and a section of it before React has taken that section over
 * (section-reach.ts). What the server drew in each field is noted before React takes the
 * page over; once the application session has started, every field whose value differs
 * from it is the applicant's change and joins the answers (and so the save queue), the same
 * as a keystroke after the scripts; a section taken over later gives what was typed into it
 * since. React keeps a field's typed value while it takes over the markup; should it draw
 * the page or a section afresh instead (the two drawings differed), the noted fields, though
 * no longer on the page, still hold what was typed, and the field that had the focus gives
 * it to the field drawn in its place.
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The attribute the server puts on the root element it drew into. */
export const DRAWN_ATTRIBUTE = 'data-drawn';

interface Noted {
  controls: Control[];
  /** each drawn section (`page/section`) and its fields */
  sections: Map<string, { element: Element; controls: Control[] }>;
  /** the value each answer had when it was last taken (first: as drawn) */
  taken: Map<string, AnswerValue>;
  started: boolean;
  /** the drawn field that last had the focus */
  focused: Control | null;
}

/** The drawn fields. */
let noted: Noted | null = null;

const sectionKey = (pageId: string, sectionId: string) => `${pageId}/${sectionId}`;

const isControl = (target: EventTarget | null): target is Control =>
  target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;

function noteFocus(event: FocusEvent): void {
  if (noted && isControl(event.target) && noted.controls.includes(event.target)) noted.focused = event.target;
}

/** A control's answer as drawn (its default) or as it is now; undefined for one that says nothing alone (an unchecked radio, a list box). */
function valueOf(control: Control, drawn: boolean): AnswerValue | undefined {
  if (control instanceof HTMLSelectElement) {
    if (control.multiple) return undefined;
    if (!drawn) return control.value;
    const options = [...control.options];
    return (options.find((option) => option.defaultSelected) ?? options[0])?.value ?? '';
  }
  if (control instanceof HTMLInputElement && control.type === 'checkbox') return drawn ? control.defaultChecked : control.checked;
  if (control instanceof HTMLInputElement && control.type === 'radio') {
    return (drawn ? control.defaultChecked : control.checked) ? control.value : undefined;
  }
  return drawn ? control.defaultValue : control.value;
}

function valuesOf(controls: Control[], drawn: boolean): Map<string, AnswerValue> {
  const values = new Map<string, AnswerValue>();
  for (const control of controls) {
    // a radio group with no choice is a blank answer
    if (control instanceof HTMLInputElement && control.type === 'radio' && !values.has(control.name)) values.set(control.name, '');
    const value = valueOf(control, drawn);
    if (value !== undefined) values.set(control.name, value);
  }
  return values;
}

/** Notes what the server drew in `root`'s fields; false when the root was not drawn by the server. */
export function noteServerFields(root: HTMLElement): boolean {
  if (!root.hasAttribute(DRAWN_ATTRIBUTE)) return false;
  const controls = [...root.querySelectorAll<Control>('input[name], select[name], textarea[name]')].filter((control) => form.fields[control.name]);
  const sections = new Map<string, { element: Element; controls: Control[] }>();
  for (const element of root.querySelectorAll<HTMLElement>('[data-page] [data-section]')) {
    const page = element.closest<HTMLElement>('[data-page]')!.dataset.page!;
    sections.set(sectionKey(page, element.dataset.section!), { element, controls: controls.filter((control) => element.contains(control)) });
  }
  noted = { controls, sections, taken: valuesOf(controls, true), started: false, focused: isControl(document.activeElement) ? document.activeElement : null };
  document.addEventListener('focusin', noteFocus, true);
  return true;
}

function takeTyped(controls: Control[]): Record<string, AnswerValue> {
  const { taken } = noted!;
  const changed = [...valuesOf(controls, false)].filter(([key, value]) => taken.get(key) !== value);
  for (const [key, value] of changed) taken.set(key, value);
  return Object.fromEntries(changed);
}

/** The answers typed into the server's fields before the session started (once: later ones are taken by their sections). */
export function takeTypedBeforeStart(): Record<string, AnswerValue> {
  if (!noted || noted.started) return {};
  noted.started = true;
  return takeTyped(noted.controls);
}

/** What a section the server drew gives as React takes it over. */
export interface SectionTakenOver {
  /** the answers typed into its drawn fields since the session started */
  typed: Record<string, AnswerValue>;
  /** React drew it afresh instead of taking the drawing over: the two drawings differed */
  drawnAfresh: boolean;
}

/**
 * The section `pageId/sectionId` is React's now (taken over late, after the session started):
 * what was typed into its drawn fields, read from them even if React has put others in their
 * place. A field drawn afresh takes the focus its drawn field had, the caret at its end.
 */
export function takeOverSection(pageId: string, sectionId: string): SectionTakenOver {
  const section = noted?.sections.get(sectionKey(pageId, sectionId));
  if (!noted || !section) return { typed: {}, drawnAfresh: false };
  const drawnAfresh = !section.element.isConnected;
  const { focused } = noted;
  if (drawnAfresh && focused && section.controls.includes(focused) && !document.activeElement?.closest('[data-page]')) {
    const replacement = document.getElementById(focused.id || focused.name);
    if (isControl(replacement)) {
      replacement.focus();
      if (replacement instanceof HTMLInputElement && ['text', 'email', 'tel', 'search', 'url'].includes(replacement.type)) {
        replacement.setSelectionRange(replacement.value.length, replacement.value.length);
      }
    }
  }
  return { typed: noted.started ? takeTyped(section.controls) : {}, drawnAfresh };
}

/** The drawn page is left: what it noted is no longer needed. */
export function forgetServerFields(): void {
  noted = null;
  document.removeEventListener('focusin', noteFocus, true);
}
