import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import type { AnswerValue } from '../src/shared/answers/conditions.ts';
import type { Language } from '../src/shared/i18n/languages.ts';
import { isHttps } from '../src/server/config.ts';
import { createApplicant, markConfirmed } from '../src/server/db/repositories/applicant-repository.ts';
import { recordLogin } from '../src/server/db/repositories/login-repository.ts';
import { insertSession } from '../src/server/db/repositories/session-repository.ts';
import { randomToken, sha256 } from '../src/server/lib/secrets.ts';
import { ApiSession, STRONG_PASSWORD } from './api-session.ts';

/**
 * An applicant in any state, written through the repositories and services in a few
 * milliseconds, for the many tests whose subject is not the sign-up: the real sign-up (mail,
 * code, confirmation, login, several argon2 hashes) stays in the tests whose subject it is
 * (`signUpThroughMail`). What is written is what the sign-up and the API write: the same
 * rows, the same password hash scheme, answers through the answers service (their `_desc`
 * labels and clocks), a session as a login starts one.
 */
export interface ApplicantState {
  email: string;
  password?: string;
  /** default true; false: signed up and not confirmed (no session) */
  confirmed?: boolean;
  language?: Language;
  answers?: Record<string, AnswerValue>;
  addAnother?: Record<string, number>;
  tabs?: Record<string, string>;
  lastPage?: string;
  /** 'submitted' validates and submits the answers given (they must be complete) */
  status?: 'started' | 'validating' | 'submitted';
}

// the server's own scheme (src/server/accounts/password-hasher.ts); one hash per password per process
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const hashes = new Map<string, Promise<string>>();
const passwordHash = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hash(password, ARGON2));
  return hashes.get(password)!;
};

/** Writes an applicant as the state says; returns its id. */
export async function seedApplicant(app: FastifyInstance, state: ApplicantState): Promise<{ id: string; email: string }> {
  const email = state.email.trim().toLowerCase();
  const created = await createApplicant(app.db, email, await passwordHash(state.password ?? STRONG_PASSWORD), state.language);
  if (!created) throw new Error(`seedApplicant: ${email} exists already`);
  if (state.confirmed === false) return { id: created.id, email };
  await markConfirmed(app.db, created.id);
  if (state.answers && Object.keys(state.answers).length) {
    await app.lifecycle.saveAnswers(created.id, state.answers as Record<string, string | boolean>);
  }
  for (const [buttonId, count] of Object.entries(state.addAnother ?? {})) {
    await app.formExtras.saveAddAnother(created.id, { button_id: buttonId, num_components: count });
  }
  for (const [tabId, tab] of Object.entries(state.tabs ?? {})) await app.formExtras.saveTab(created.id, { tab_id: tabId, chosen_tab: tab });
  if (state.lastPage) await app.lifecycle.saveLastPage(created.id, { last_page: state.lastPage });
  if (state.status === 'validating' || state.status === 'started') {
    await app.lifecycle.postStatus(created.id, { web_status: 'started' });
    if (state.status === 'validating') await app.lifecycle.postStatus(created.id, { web_status: 'validating' });
  }
  if (state.status === 'submitted') await app.lifecycle.submit(created.id);
  return { id: created.id, email };
}

/** A logged-in session of the applicant, as a login starts one (its login recorded), driven through the API. */
export async function sessionFor(app: FastifyInstance, applicantId: string): Promise<ApiSession> {
  const token = randomToken();
  await insertSession(app.db, sha256(token), applicantId, new Date(Date.now() + 12 * 60 * 60_000));
  await recordLogin(app.db, applicantId);
  const session = new ApiSession(app);
  session.cookies.set(isHttps(app.config) ? '__Host-session' : 'session', token);
  session.cookies.set('logged_in', '1');
  return session;
}

/** A confirmed, logged-in applicant (with the answers and state given), ready to drive the API. */
export async function seededApplicant(app: FastifyInstance, state: ApplicantState): Promise<ApiSession> {
  const { id } = await seedApplicant(app, state);
  return sessionFor(app, id);
}

/** A confirmed applicant with a logged-in session and nothing else, seeded. */
export async function createConfirmedApplicant(app: FastifyInstance, email: string, password = STRONG_PASSWORD): Promise<ApiSession> {
  return seededApplicant(app, { email, password });
}
