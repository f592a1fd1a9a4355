// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { forgetServerFields, noteServerFields, takeOverSection, takeTypedBeforeStart } from '../../src/client/features/form/typed-before-start.ts';

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
    root.innerHTML = `<div data-page="about"><section data-section="one"><input type="text" name="first_name" value="Drawn"></section>
      <section data-section="two"><input type="text" name="last_name" value=""></section></div>`;
    noteServerFields(root);
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Early';
    // before the session has started, a section's take-over leaves it to the start, which takes all
    expect(takeOverSection('about', 'two')).toEqual({ typed: {}, drawnAfresh: false });
    expect(takeTypedBeforeStart()).toEqual({ last_name: 'Early' });
    root.querySelector<HTMLInputElement>('[name="first_name"]')!.value = 'Late';
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Later';
    expect(takeOverSection('about', 'one').typed).toEqual({ first_name: 'Late' });
    expect(takeOverSection('about', 'two').typed).toEqual({ last_name: 'Later' });
    // taken once: an unchanged field is no change
    expect(takeOverSection('about', 'one').typed).toEqual({});
    forgetServerFields();
    root.querySelector<HTMLInputElement>('[name="first_name"]')!.value = 'Forgotten';
    expect(takeOverSection('about', 'one').typed).toEqual({});
  });

  it('takes what was typed into a section React drew afresh from its drawn fields, and gives the focus to the field in its place', () => {
    const root = drawnRoot();
    root.innerHTML = `<div data-page="about"><section data-section="one"><input type="text" id="first_name" name="first_name" value="Drawn"></section></div>`;
    noteServerFields(root);
    takeTypedBeforeStart();
    const drawn = root.querySelector<HTMLInputElement>('#first_name')!;
    drawn.focus();
    drawn.value = 'Typed before the take-over';
    // the two drawings differed: React put a section of its own in the drawn one's place
    root.querySelector('[data-page]')!.innerHTML = `<section data-section="one"><input type="text" id="first_name" name="first_name" value="Drawn"></section>`;
    expect(document.activeElement).toBe(document.body);
    expect(takeOverSection('about', 'one')).toEqual({ typed: { first_name: 'Typed before the take-over' }, drawnAfresh: true });
    const replacement = root.querySelector<HTMLInputElement>('#first_name')!;
    expect(document.activeElement).toBe(replacement);
    expect(replacement.selectionStart).toBe(replacement.value.length);
  });

  it('notes nothing in a root the server did not draw', () => {
    const root = drawnRoot(false);
    expect(noteServerFields(root)).toBe(false);
    root.querySelector<HTMLInputElement>('[name="last_name"]')!.value = 'Typed';
    expect(takeTypedBeforeStart()).toEqual({});
  });
});
