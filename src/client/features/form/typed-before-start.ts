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
 * the page afresh instead, the noted fields still hold what was typed.
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The attribute the server puts on the root element it drew into. */
export const DRAWN_ATTRIBUTE = 'data-drawn';

/** The drawn fields, and the value each answer had when it was last taken (first: as drawn). */
let noted: { controls: Control[]; taken: Map<string, AnswerValue>; started: boolean } | null = null;

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
  noted = { controls, taken: valuesOf(controls, true), started: false };
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

/** The answers typed into the server's fields within `scope` since the session started (a section React takes over late). */
export function takeTypedIn(scope: Element): Record<string, AnswerValue> {
  if (!noted?.started) return {};
  return takeTyped(noted.controls.filter((control) => scope.contains(control)));
}

/** The drawn page is left: what it noted is no longer needed. */
export function forgetServerFields(): void {
  noted = null;
}
