import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module with a window of its own: it listens for the page being left as it loads. */
async function loadWithWindow() {
  const page = new EventTarget();
  vi.stubGlobal('window', page);
  vi.resetModules();
  const { failUnlessLeaving } = await import('../../src/client/lib/page-leaving.ts');
  return { page, failUnlessLeaving };
}

/** What a promise has done once everything already due has run. */
async function outcome(promise: Promise<unknown>): Promise<'pending' | 'rejected' | 'resolved'> {
  let state: 'pending' | 'rejected' | 'resolved' = 'pending';
  promise.then(() => (state = 'resolved'), () => (state = 'rejected'));
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe('a request failing as the page is left', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is a failure like any other while the page stays', async () => {
    const { failUnlessLeaving } = await loadWithWindow();
    const error = new Error('network');
    await expect(failUnlessLeaving(error)).rejects.toBe(error);
  });

  it('never settles once the page is being left, so nothing acts on what the browser cut off', async () => {
    const { page, failUnlessLeaving } = await loadWithWindow();
    page.dispatchEvent(new Event('pagehide'));
    expect(await outcome(failUnlessLeaving(new Error('aborted')))).toBe('pending');
  });

  it('fails after all when the page comes back from the back/forward cache, and later failures fail at once', async () => {
    const { page, failUnlessLeaving } = await loadWithWindow();
    page.dispatchEvent(new Event('pagehide'));
    const error = new Error('aborted');
    const waiting = failUnlessLeaving(error);
    page.dispatchEvent(new Event('pageshow'));
    await expect(waiting).rejects.toBe(error);
    expect(await outcome(failUnlessLeaving(new Error('later')))).toBe('rejected');
  });
});
