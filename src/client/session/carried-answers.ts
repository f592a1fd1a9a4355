import type { AnswerValue } from '../../shared/answers/conditions.ts';

/**
 * What an anonymous visitor typed, kept in sessionStorage (this tab only, gone when it
 * closes) so that a reload loses nothing and the answers reach the new account after
 * sign-up, confirmation and login (spec-decisions 4).
 */
const KEY = 'app:anonymous-answers';

export function anonymousAnswers(): Record<string, AnswerValue> {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Record<string, AnswerValue>;
  } catch {
    return {};
  }
}

export function keepAnonymousAnswers(answers: Readonly<Record<string, AnswerValue | undefined>>): void {
  const given = Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== undefined && value !== ''));
  if (Object.keys(given).length) sessionStorage.setItem(KEY, JSON.stringify(given));
  else sessionStorage.removeItem(KEY);
}

export function forgetAnonymousAnswers(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(PREFILL_KEY);
}

/** The prefill link's token, sent with the sign-up so the new account uses it up (spec-decisions 5). */
const PREFILL_KEY = 'app:prefill-token';

export function keepPrefillToken(token: string): void {
  sessionStorage.setItem(PREFILL_KEY, token);
}

export function prefillToken(): string | undefined {
  return sessionStorage.getItem(PREFILL_KEY) ?? undefined;
}

export function hasAnswers(answers: Readonly<Record<string, unknown>>): boolean {
  return Object.values(answers).some((value) => value !== undefined && value !== '' && value !== false);
}
