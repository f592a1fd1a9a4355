// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterSectionsReached, holdDrawnSections, reachSection, releaseDrawnSections, sectionHeld } from '../../src/client/features/form/section-reach.ts';

/** jsdom has no IntersectionObserver: this one is told by the test which sections near the screen. */
class TestObserver {
  static current: TestObserver | null = null;
  readonly observed = new Set<Element>();
  constructor(readonly notify: (entries: { target: Element; isIntersecting: boolean }[]) => void, readonly options: { rootMargin?: string }) {
    TestObserver.current = this;
  }
  observe(element: Element) { this.observed.add(element); }
  unobserve(element: Element) { this.observed.delete(element); }
  disconnect() { this.observed.clear(); }
  nears(element: Element) { this.notify([{ target: element, isIntersecting: true }]); }
}

function drawnPage(): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = `<div data-page="about">
    <section data-section="personal"><input name="first_name"></section>
    <section data-section="contact"><label>Mobile <input name="phone_mobile"></label></section>
    <section data-section="military"><select name="military_status"><option>--</option></select></section>
  </div>`;
  document.body.append(root);
  return root;
}

const section = (id: string) => document.querySelector(`[data-section="${id}"]`)!;
const isHeld = (id: string) => sectionHeld('about', id) !== null;

beforeEach(() => vi.stubGlobal('IntersectionObserver', TestObserver));
afterEach(() => {
  releaseDrawnSections();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('sections held until reached', () => {
  it('holds each drawn section until it nears the screen, and lets it go once', async () => {
    holdDrawnSections(drawnPage());
    expect(['personal', 'contact', 'military'].every(isHeld)).toBe(true);
    expect(TestObserver.current!.options.rootMargin).toMatch(/%/);
    const reached = sectionHeld('about', 'personal')!;
    TestObserver.current!.nears(section('personal'));
    await reached;
    expect(isHeld('personal')).toBe(false);
    expect(TestObserver.current!.observed.has(section('personal'))).toBe(false);
    expect(isHeld('contact')).toBe(true);
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
    expect(TestObserver.current!.observed.size).toBe(0);
  });

  it('holds nothing in a browser without IntersectionObserver: the page is taken over whole', () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    let ran = 0;
    holdDrawnSections(drawnPage());
    afterSectionsReached(() => ran++);
    expect(['personal', 'contact', 'military'].some(isHeld)).toBe(false);
    expect(ran).toBe(1);
  });
});
