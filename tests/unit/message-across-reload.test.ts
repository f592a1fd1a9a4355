import { describe, expect, it } from 'vitest';
import messages from '../../schemas/auth/messages.json';
import { keepMessageAcrossReload, takeMessageKept } from '../../src/client/session/message-across-reload.ts';
import type { TabStorage } from '../../src/client/session/tab-storage.ts';

function memoryStorage(): TabStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) };
}

describe('a message kept across a page load', () => {
  it('gives the kept message\'s text once, then nothing', () => {
    const storage = memoryStorage();
    keepMessageAcrossReload('login_success', storage);
    expect(takeMessageKept(storage)).toBe(messages.login_success);
    expect(takeMessageKept(storage)).toBeUndefined();
  });

  it('shows nothing for a key that is not a message, such as one planted in the tab\'s storage', () => {
    const storage = memoryStorage();
    storage.setItem('app:message-after-reload', '__proto__');
    expect(takeMessageKept(storage)).toBeUndefined();
    expect(storage.items.size).toBe(0);
  });
});
