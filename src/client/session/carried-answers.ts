import type { AnswerValue } from '../../shared/answers/conditions.ts';
import { tabStorage, type TabStorage } from './tab-storage.ts';

/**
 * What an anonymous visitor typed, kept in sessionStorage (this tab only, gone when it
 * closes) so that a reload loses nothing and the answers reach the new account after
 * sign-up, confirmation and login (spec-decisions 4).
 */
const KEY = 'app:anonymous-answers';

export function anonymousAnswers(storage: TabStorage = tabStorage()): Record<string, AnswerValue> {
  try {
    return JSON.parse(storage.getItem(KEY) ?? '{}') as Record<string, AnswerValue>;
  } catch {
    return {};
  }
}

export function keepAnonymousAnswers(answers: Readonly<Record<string, AnswerValue | undefined>>, storage: TabStorage = tabStorage()): void {
  const given = Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== undefined && value !== ''));
  if (Object.keys(given).length) storage.setItem(KEY, JSON.stringify(given));
  else storage.removeItem(KEY);
}

export function forgetAnonymousAnswers(storage: TabStorage = tabStorage()): void {
  storage.removeItem(KEY);
  storage.removeItem(PREFILL_KEY);
}

/** The prefill link's token, sent with the sign-up so the new account uses it up (spec-decisions 5). */
const PREFILL_KEY = 'app:prefill-token';

export function keepPrefillToken(token: string, storage: TabStorage = tabStorage()): void {
  storage.setItem(PREFILL_KEY, token);
}

export function prefillToken(storage: TabStorage = tabStorage()): string | undefined {
  return storage.getItem(PREFILL_KEY) ?? undefined;
}

/**
 * Whether this tab keeps answers of its own: an anonymous visitor's, or an applicant's
 * not saved yet (save-queue.ts keeps them under `app:unsaved:<owner>`). A page the server
 * drew without them is drawn afresh (src/client/start.tsx).
 */
export function hasAnswersInTab(storage: Storage = sessionStorage): boolean {
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index) ?? '';
    if (key === KEY || key.startsWith('app:unsaved:')) return true;
  }
  return false;
}

export function hasAnswers(answers: Readonly<Record<string, unknown>>): boolean {
  return Object.values(answers).some((value) => value !== undefined && value !== '' && value !== false);
}
