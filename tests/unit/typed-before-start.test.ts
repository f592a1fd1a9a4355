// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetServerFields, noteServerFields, takeTypedBeforeStart, takeTypedIn } from '../../src/client/features/form/typed-before-start.ts';

/** A root as the server draws it: each control's value in its markup. */
function drawnRoot(drawn = true): HTMLElement {
  const root = document.createElement('div');
  if (drawn) root.setAttribute('data-drawn', '');
  root.innerHTML = `
    <input type="text" name="first_name" value="Drawn">
    <input type="text" name="last_name" value="">
    <input type="checkbox" name="optin_sms_ind">
    <input type="radio" name="gender" value="F" checked><input type="radio" name="gender" value="M">
    <select name="country"><option value="">--</option><option value="USA" selected>United States</option><option value="CAN">Canada</option></select>
    <input type="text" name="not_an_answer" value="">`;
  document.body.append(root);
  return root;
}

afterEach(() => {
  document.body.innerHTML = '';
  forgetServerFields();
});

describe('typed before start', () => {
  it('takes what differs from the server\'s drawing as the applicant\'s changes, once', () => {
    const root = drawnRoot();
    expect(noteServerFields(root)).toBe(true);
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Typed';
    root.querySelector<HTMLInputElement>('[name="optin_sms_ind"]')!.checked = true;
    root.querySelector<HTMLInputElement>('[value="M"]')!.checked = true;
    root.querySelector<HTMLSelectElement>('[name="country"]')!.value = 'CAN';
    root.querySelector<HTMLInputElement>('[name="not_an_answer"]')!.value = 'ignored';
    // what the page was drawn afresh over is still read: the noted controls keep their values
    root.innerHTML = '';
    expect(takeTypedBeforeStart()).toEqual({ last_name: 'Typed', optin_sms_ind: true, gender: 'M', country: 'CAN' });
    expect(takeTypedBeforeStart()).toEqual({});
  });

  it('takes what was typed into a section after the start when that section is taken over, and only its own', () => {
    const root = drawnRoot();
    root.innerHTML = `<section id="one"><input type="text" name="first_name" value="Drawn"></section>
      <section id="two"><input type="text" name="last_name" value=""></section>`;
    noteServerFields(root);
    const [one, two] = [root.querySelector('#one')!, root.querySelector('#two')!];
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Early';
    // before the session has started, a section's take-over leaves it to the start, which takes all
    expect(takeTypedIn(two)).toEqual({});
    expect(takeTypedBeforeStart()).toEqual({ last_name: 'Early' });
    root.querySelector<HTMLInputElement>('[name="first_name"]')!.value = 'Late';
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Later';
    expect(takeTypedIn(one)).toEqual({ first_name: 'Late' });
    expect(takeTypedIn(two)).toEqual({ last_name: 'Later' });
    // taken once: an unchanged field is no change
    expect(takeTypedIn(one)).toEqual({});
    forgetServerFields();
    root.querySelector<HTMLInputElement>('[name="first_name"]')!.value = 'Forgotten';
    expect(takeTypedIn(one)).toEqual({});
  });

  it('notes nothing in a root the server did not draw', () => {
    const root = drawnRoot(false);
    expect(noteServerFields(root)).toBe(false);
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Typed';
    expect(takeTypedBeforeStart()).toEqual({});
  });
});
