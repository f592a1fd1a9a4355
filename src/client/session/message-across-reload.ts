import messages from '../../../schemas/auth/messages.json';
import { tabStorage, type TabStorage } from './tab-storage.ts';

/**
 * A success message that must outlive a full page load: a login into an account of another
 * language loads that language's build, and navigation state does not cross it. The key is
 * kept, not the text, so the next page shows the message in its own language.
 */
const KEY = 'app:message-after-reload';
type MessageKey = Exclude<keyof typeof messages, 'version'>;

export function keepMessageAcrossReload(key: MessageKey, storage: TabStorage = tabStorage()): void {
  storage.setItem(KEY, key);
}

/** The kept message's text in this page's language, once: it is gone after it is read. */
export function takeMessageKept(storage: TabStorage = tabStorage()): string | undefined {
  const key = storage.getItem(KEY);
  storage.removeItem(KEY);
  const text = key !== null && Object.hasOwn(messages, key) ? messages[key as MessageKey] : undefined;
  return typeof text === 'string' ? text : undefined;
}
