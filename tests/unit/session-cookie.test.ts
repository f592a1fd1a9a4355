// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetSessionCookie, hasSessionCookie } from '../../src/client/lib/session-cookie.ts';

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.restoreAllMocks();
  document.cookie = 'logged_in=; Max-Age=0; path=/';
});

describe('the readable session cookie', () => {
  it('is read from the browser once a task, and afresh in the next', async () => {
    document.cookie = 'logged_in=1; path=/';
    await nextTask();
    const reads = vi.spyOn(Document.prototype, 'cookie', 'get');
    expect([hasSessionCookie(), hasSessionCookie(), hasSessionCookie()]).toEqual([true, true, true]);
    expect(reads).toHaveBeenCalledTimes(1);
    // the server's logout arrives in a task of its own: the next task sees the cookie gone
    document.cookie = 'logged_in=; Max-Age=0; path=/';
    await nextTask();
    expect(hasSessionCookie()).toBe(false);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('is gone at once, in the same task, once the page forgets it', async () => {
    document.cookie = 'logged_in=1; path=/';
    await nextTask();
    expect(hasSessionCookie()).toBe(true);
    forgetSessionCookie();
    expect(hasSessionCookie()).toBe(false);
  });
});
