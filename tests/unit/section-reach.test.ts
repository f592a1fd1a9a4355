// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { afterSectionsReached, holdDrawnSections, reachSection, releaseDrawnSections, sectionHeld, sectionTakenOver } from '../../src/client/features/form/section-reach.ts';

function drawnPage(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = `<div data-page="about">
    <section data-section="personal"><input name="first_name"></section>
    <section data-section="contact"><label>Mobile <input name="phone_mobile"></label><input name="school" role="combobox"></section>
    <section data-section="military"><select name="military_status"><option>--</option></select></section>
  </div>`;
  document.body.append(root);
  return root;
}

const section = (id: string) => document.querySelector(`[data-section="${id}"]`)!;
const isHeld = (id: string) => sectionHeld('about', id) !== null;

afterEach(() => {
  releaseDrawnSections();
  document.body.innerHTML = '';
});

describe('sections held until reached', () => {
  it('holds each drawn section, on the screen or not, until the pointer comes over it, and lets it go once', async () => {
    holdDrawnSections(drawnPage());
    expect(['personal', 'contact', 'military'].every(isHeld)).toBe(true);
    const reached = sectionHeld('about', 'personal')!;
    section('personal').querySelector('input')!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    await reached;
    expect(isHeld('personal')).toBe(false);
    expect(isHeld('contact')).toBe(true);
    // the pointer over the page but outside every section reaches none
    section('contact').parentElement!.dispatchEvent(new Event('pointerover', { bubbles: true }));
    expect(['contact', 'military'].every(isHeld)).toBe(true);
  });

  it('reaches at once the section of a field focused before the scripts came', () => {
    const root = drawnPage();
    section('contact').querySelector('input')!.focus();
    holdDrawnSections(root);
    expect(isHeld('contact')).toBe(false);
    expect(['personal', 'military'].every(isHeld)).toBe(true);
  });

  it('reaches a section on a focus, a press, a key or a value filled in it, before any listener below the document', () => {
    holdDrawnSections(drawnPage());
    const seenHeld: boolean[] = [];
    // as React's listener on the root would: the section is already reached when it looks
    section('contact').parentElement!.addEventListener('focusin', () => seenHeld.push(isHeld('contact')), true);
    section('contact').querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(seenHeld).toEqual([false]);
    // autofill: an input event with no focus or key before it
    section('military').querySelector('select')!.dispatchEvent(new Event('change', { bubbles: true }));
    expect(isHeld('military')).toBe(false);
    expect(isHeld('personal')).toBe(true);
    section('personal').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(isHeld('personal')).toBe(false);
  });

  it('runs what waits for the last section once it is reached, and at once when none is held', () => {
    let ran = 0;
    afterSectionsReached(() => ran++);
    expect(ran).toBe(1);
    holdDrawnSections(drawnPage());
    afterSectionsReached(() => ran++);
    reachSection('about', 'personal');
    reachSection('about', 'contact');
    expect(ran).toBe(1);
    releaseDrawnSections();
    expect(ran).toBe(2);
    expect(['personal', 'contact', 'military'].some(isHeld)).toBe(false);
    // no longer listening: an event in a section changes nothing and throws nothing
    section('personal').querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(ran).toBe(2);
  });

  it('leaves typing into a text field of a section not yet taken over to the browser, and hands the field to React once it is', () => {
    holdDrawnSections(drawnPage());
    const heard: string[] = [];
    // where React listens: on the root, below the document
    const root = section('personal').parentElement!;
    for (const type of ['keydown', 'input', 'pointerdown', 'change', 'focusin']) root.addEventListener(type, (event) => heard.push(`${(event.target as Element).getAttribute('name') ?? ''} ${type}${event instanceof KeyboardEvent ? ` ${event.key}` : ''}`), true);
    const field = section('personal').querySelector('input')!;
    const type = (target: Element, init: KeyboardEventInit) => {
      target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, ...init }));
      target.dispatchEvent(new Event('input', { bubbles: true }));
    };
    field.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    field.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    type(field, { key: 'x' });
    type(field, { key: 'Backspace' });
    // keys that are not typing, and fields that answer each key or are not text, still reach the page's handlers
    field.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 'Enter' }));
    field.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, key: 's', ctrlKey: true }));
    type(section('contact').querySelector('[role=combobox]')!, { key: 'a' });
    section('military').querySelector('select')!.dispatchEvent(new Event('change', { bubbles: true }));
    expect(heard).toEqual(['first_name focusin', 'first_name keydown Enter', 'first_name keydown s', 'school keydown a', 'school input', 'military_status change']);
    heard.length = 0;
    sectionTakenOver('about', 'personal');
    type(field, { key: 'y' });
    expect(heard).toEqual(['first_name keydown y', 'first_name input']);
    // a section reached but not yet taken over is still the browser's to type into
    heard.length = 0;
    const mobile = section('contact').querySelector('input')!;
    mobile.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(isHeld('contact')).toBe(false);
    type(mobile, { key: '5' });
    expect(heard).toEqual(['phone_mobile focusin']);
    // once the page is left nothing is stopped
    heard.length = 0;
    releaseDrawnSections();
    type(mobile, { key: '6' });
    expect(heard).toEqual(['phone_mobile keydown 6', 'phone_mobile input']);
  });
});
