import type { AnswerValue } from '../../shared/answers/conditions.ts';
import { deviceStorage, type TabStorage } from './tab-storage.ts';

/**
 * What an anonymous visitor typed, kept in this browser's localStorage so that a reload, a
 * closed tab or a crash loses nothing and the answers reach the new account after sign-up,
 * confirmation and login (spec-decisions 4). Tabs merge what each changed, key by key, so a
 * second tab never writes over the first's answers. Kept for two weeks from the last change:
 * on a shared computer they are the only answers anyone can read without an account, and
 * the next visitor can clear them (ADR 015).
 */
const KEY = 'app:anonymous-answers';
export const ANONYMOUS_KEEP_MS = 14 * 24 * 60 * 60 * 1000;

interface Kept {
  at: number;
  answers: Record<string, AnswerValue>;
}

function read(storage: TabStorage, now: number): Kept | null {
  try {
    const kept = JSON.parse(storage.getItem(KEY) ?? 'null') as Kept | null;
    if (!kept || typeof kept.answers !== 'object' || now - kept.at > ANONYMOUS_KEEP_MS) return null;
    return kept;
  } catch {
    return null;
  }
}

export function anonymousAnswers(storage: TabStorage = deviceStorage(), now = Date.now()): Record<string, AnswerValue> {
  const kept = read(storage, now);
  if (!kept) storage.removeItem(KEY);
  return kept?.answers ?? {};
}

/** Merges these answers into what is kept ("" and undefined remove a key). */
export function keepAnonymousAnswers(answers: Readonly<Record<string, AnswerValue | undefined>>, storage: TabStorage = deviceStorage(), now = Date.now()): void {
  const merged = { ...(read(storage, now)?.answers ?? {}) };
  for (const [key, value] of Object.entries(answers)) {
    if (value === undefined || value === '') delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length) storage.setItem(KEY, JSON.stringify({ at: now, answers: merged } satisfies Kept));
  else storage.removeItem(KEY);
}

export function forgetAnonymousAnswers(storage: TabStorage = deviceStorage()): void {
  storage.removeItem(KEY);
  storage.removeItem(PREFILL_KEY);
}

/** The prefill link's token, sent with the sign-up so the new account uses it up (spec-decisions 5). */
const PREFILL_KEY = 'app:prefill-token';

export function keepPrefillToken(token: string, storage: TabStorage = deviceStorage()): void {
  storage.setItem(PREFILL_KEY, token);
}

export function prefillToken(storage: TabStorage = deviceStorage()): string | undefined {
  return storage.getItem(PREFILL_KEY) ?? undefined;
}

/**
 * Whether this browser keeps an anonymous visitor's answers: a page the server drew without
 * them is drawn afresh (src/client/start.tsx). An applicant's unsaved answers need no such
 * care: they are decrypted after the page is taken over and shown as the server's are.
 */
export function hasAnswersKept(storage: TabStorage = deviceStorage()): boolean {
  return Object.keys(anonymousAnswers(storage)).length > 0;
}

export function hasAnswers(answers: Readonly<Record<string, unknown>>): boolean {
  return Object.values(answers).some((value) => value !== undefined && value !== '' && value !== false);
}
