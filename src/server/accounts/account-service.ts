import type {
  ConfirmBody, ForgotPasswordBody, LoginBody, MailStatusBody, ResendConfirmationBody, ResetPasswordBody, SignupBody,
} from '../../shared/generated/api-types.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import messages from '../../../schemas/auth/messages.json';
import errorsText from '../../../schemas/text/errors.json';
import partner from '../../../schemas/partner.json';
import { validateAuthForm, type AuthFormName } from '../../shared/auth/auth-forms.ts';
import { SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { hasErrors } from '../../shared/validation/field-errors.ts';
import { deleteCode, findCode, replaceCode } from '../db/repositories/account-code-repository.ts';
import {
  createApplicant, findApplicantByEmail, markConfirmed, setPasswordHash, type Applicant,
} from '../db/repositories/applicant-repository.ts';
import { deleteSessionsOf } from '../db/repositories/session-repository.ts';
import { addSignupBrowser, forgetSignupBrowsers, isSignupBrowser } from '../db/repositories/signup-browser-repository.ts';
import { deleteAnswersOf, writeAnswers } from '../db/repositories/answer-repository.ts';
import { deletePrefill } from '../db/repositories/prefill-repository.ts';
import { recordLogin } from '../db/repositories/login-repository.ts';
import { storedChanges } from '../answers/answer-changes.ts';
import { form } from '../../shared/form/form-model-data.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { hmac, randomDigits, randomToken, safeEqual, sha256 } from '../lib/secrets.ts';
import type { MailQueue, MailStatus } from '../mail/mail-queue.ts';
import { mailLanguage, mailText as textOfMail, type MailTextName } from '../mail/mail-texts.ts';
import { attemptLimits, consumeAttempt, consumeMailAllowance, countAttempt, resetAttempts } from './attempt-limits.ts';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password-hasher.ts';
import { passwordProblem } from './password-policy.ts';
import type { SecretStore } from '../lib/secret-store.ts';

const CONFIRM_CODE_TTL_MS = 10 * 60_000; // ASVS 2.7.2: out-of-band codes live at most 10 minutes
const RESET_TOKEN_TTL_MS = 30 * 60_000;
/**
 * The password of an unconfirmed account that a second, different sign-up contested: no
 * password opens it, and whoever confirms it (the mailbox owner) chooses one by a mailed
 * reset link. Not an argon2 hash, so it never verifies.
 */
const CONTESTED = '!contested';

export interface AccountContext {
  db: Kysely<Database>;
  mailQueue: MailQueue;
  log: FastifyBaseLogger;
  /** read at use: tests learn the port only after listening */
  publicUrl(): string;
  /** key for hashing 6-digit codes */
  codeKey: string;
  /** the network a client address counts as (lib/client-network.ts, with the configured IPv4 prefix) */
  networkOf(address: string): string;
  /** calls that mail someone, per client network and hour (MAIL_PER_NETWORK_PER_HOUR) */
  mailPerNetworkPerHour: number;
}

export interface Reply {
  message: string;
}

/** An answer that speaks of an e-mail: `mail` is its ticket (mailStatus). */
export interface Delivery extends Reply {
  mail: string;
}

/** The afterSent step of a code's or link's mail: its window starts when the mail goes. */
export const CODE_WINDOW = 'code-window';

export interface CodeWindow {
  applicantId: string;
  purpose: 'confirm' | 'reset';
  secretHash: string;
  ttlMs: number;
}

/**
 * Validates a form body with the shared schema (schemas/auth/: its required fields and
 * messages, which the contract leaves to it); the first message per field is the reply. The
 * fields named are the ones the form requires: they are strings from here on.
 */
function validated<B extends { username?: string }, K extends keyof B>(form: AuthFormName, body: B, ..._required: K[]): B & { [P in K]-?: string } {
  const errors = validateAuthForm(form, body);
  if (hasErrors(errors)) {
    const first = Object.values(errors)[0]?.[0] ?? errorsText.standard;
    throw new HttpError(400, first, { code: 'INVALID_INPUT', errors });
  }
  return { ...body, username: String(body.username).trim() } as B & { [P in K]-?: string };
}

function checkPasswordPolicy(password: string, email: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new HttpError(400, problem, { code: 'INVALID_INPUT', errors: { password: [problem] } });
}

const text = (template: string, values: Record<string, string> = {}) =>
  fillTemplate(template, { partner: partner.name, short_name: partner.short_name, ...values });

/** An e-mail's subject or text in the applicant's language. */
const mailText = (applicant: Pick<Applicant, 'language'>, name: MailTextName, values: Record<string, string> = {}) =>
  textOfMail(mailLanguage(applicant.language), name, values);

/** The key for hashing confirmation codes, kept in the database (one for every instance). */
export function confirmationCodeKey(secrets: SecretStore): Promise<string> {
  return secrets.get('confirmation-code-key', () => randomToken());
}

export function createAccountService(context: AccountContext) {
  const { db, mailQueue, log, publicUrl, codeKey, networkOf, mailPerNetworkPerHour } = context;

  /** Stores a code or link's hash, valid from now and again from when its mail goes out. */
  async function storeCode(applicant: Applicant, purpose: CodeWindow['purpose'], secretHash: string, ttlMs: number) {
    await replaceCode(db, applicant.id, purpose, secretHash, new Date(Date.now() + ttlMs));
    const window: CodeWindow = { applicantId: applicant.id, purpose, secretHash, ttlMs };
    return { name: CODE_WINDOW, args: window };
  }

  /** A new confirmation code, stored, and its mail. */
  async function confirmationMail(applicant: Applicant) {
    const code = randomDigits(6);
    const afterSent = await storeCode(applicant, 'confirm', hmac(codeKey, code), CONFIRM_CODE_TTL_MS);
    await resetAttempts(db, 'confirmFailures', applicant.email);
    const message = { to: applicant.email, subject: mailText(applicant, 'confirm_subject', { code }), text: mailText(applicant, 'confirm_text', { code }), senderName: mailText(applicant, 'sender_name') };
    return { message, afterSent };
  }

  /**
   * Answers an anonymous visitor typed before signing up are kept with a new account only
   * (spec-decisions 4): never written into an account that already exists.
   */
  async function keepCarriedAnswers(applicantId: string, answers: unknown): Promise<void> {
    if (!answers || typeof answers !== 'object') return;
    const known = Object.fromEntries(Object.entries(answers).filter(([key]) => form.fields[key.replace(/_desc$/, '')]));
    try {
      const { values, versions } = storedChanges(known);
      await writeAnswers(db, applicantId, values, versions);
    } catch (error) {
      log.info({ err: error }, 'carried answers not kept'); // the sign-up itself goes on
    }
  }

  /** A new reset link, stored, and its mail. */
  async function resetMail(applicant: Applicant) {
    const token = randomToken();
    const afterSent = await storeCode(applicant, 'reset', sha256(token), RESET_TOKEN_TTL_MS);
    const query = new URLSearchParams({ username: applicant.email, id: token });
    const message = {
      to: applicant.email,
      subject: mailText(applicant, 'reset_subject'),
      text: mailText(applicant, 'reset_text', { reset_url: `${publicUrl()}/reset?${query}` }),
      senderName: mailText(applicant, 'sender_name'),
    };
    return { message, afterSent };
  }

  /** A password check that costs the same whether or not there is a real hash to check. */
  function checkPassword(applicant: Applicant | undefined, password: string, from: string): Promise<boolean> {
    return applicant && applicant.password_hash !== CONTESTED ? verifyPassword(applicant.password_hash, password, from) : verifyAgainstDummy(password, from);
  }

  /**
   * No sign-up decides who controls the account or what it holds: no password opens it,
   * its carried answers go, and whoever confirms it (the mailbox owner) chooses the
   * password by a mailed reset link.
   */
  async function contest(applicantId: string): Promise<void> {
    await setPasswordHash(db, applicantId, CONTESTED);
    await deleteAnswersOf(db, applicantId);
    await forgetSignupBrowsers(db, applicantId);
  }

  /**
   * A sign-up that lost the race to create the account (a double click): with the same
   * password its browser is one of the account's too; with another the account is contested.
   * Its mail is a stand-in either way, the winner's code is the one sent.
   */
  async function sameSignupAgain(username: string, password: string, browserProof: string, from: string): Promise<undefined> {
    const winner = await findApplicantByEmail(db, username);
    if (!winner || winner.confirmed_at) return undefined;
    if (winner.password_hash !== CONTESTED && await verifyPassword(winner.password_hash, password, from)) await addSignupBrowser(db, winner.id, sha256(browserProof));
    else await contest(winner.id);
    return undefined;
  }

  /** A prefill link's answers went into a new account: the link answers no more (spec-decisions 5). */
  async function useUpPrefill(token: unknown): Promise<void> {
    if (typeof token === 'string' && token.length >= 20 && token.length <= 100) await deletePrefill(db, sha256(token));
  }

  /** Queues a mail without making the caller wait for the queue. */
  function sendInBackground(work: () => Promise<unknown>): void {
    work().catch((error) => log.warn({ err: error }, 'background account mail failed'));
  }

  return {
    /**
     * Every path does the same work before it answers (a hash, a look-up, a password check,
     * one mail ticket), and the path's own (creating the account, keeping carried answers,
     * storing a code) is done in the background with the mail: neither the answer, its time
     * nor its ticket tells whether the address has an account. `browserProof` goes into
     * a cookie of the browser that signed up (see confirm). A new account keeps the
     * language it signed up in.
     */
    async signup(body: SignupBody, from: string, language: Language = SOURCE_LANGUAGE): Promise<Delivery & { browserProof: string }> {
      const { username, password } = validated('signup', body, 'username', 'password');
      checkPasswordPolicy(password, username);
      await consumeAttempt(db, 'signup', username);
      await consumeMailAllowance(db, username, networkOf(from), mailPerNetworkPerHour);
      const passwordHash = await hashPassword(password, from); // also for existing accounts: same work either way
      const existing = await findApplicantByEmail(db, username);
      // one check on every path: is this the same person signing up again?
      const samePassword = await checkPassword(existing && !existing.confirmed_at ? existing : undefined, password, from);
      // a random proof for the browser on every path; only an unconfirmed account remembers it
      const browserProof = randomToken();
      const { answers, prefill_token: prefillToken } = body;
      const mail = await mailQueue.sendLater(async () => {
        if (!existing) {
          const created = await createApplicant(db, username, passwordHash, language);
          if (!created) return sameSignupAgain(username, password, browserProof, from); // another sign-up for the address won the race
          await addSignupBrowser(db, created.id, sha256(browserProof));
          await keepCarriedAnswers(created.id, answers);
          await useUpPrefill(prefillToken);
          return confirmationMail(created);
        }
        if (!existing.confirmed_at) {
          // Not yet anyone's, so neither sign-up may decide who controls it or what it holds: a
          // different password voids both passwords and the carried answers, and the mailbox
          // owner chooses the password after confirming. The same password again (a double
          // click, a second try) only mails a new code.
          if (samePassword) await addSignupBrowser(db, existing.id, sha256(browserProof));
          else await contest(existing.id);
          return confirmationMail(existing);
        }
        return {
          message: {
            to: existing.email,
            subject: mailText(existing, 'existing_subject'),
            text: mailText(existing, 'existing_text', { login_url: `${publicUrl()}/login`, forgot_url: `${publicUrl()}/forgot` }),
            senderName: mailText(existing, 'sender_name'),
          },
        };
      });
      return { message: text(messages.signup_sent, { username }), mail, browserProof };
    },

    async resendConfirmation(body: ResendConfirmationBody, from: string): Promise<Delivery> {
      const { username } = validated('resend', body, 'username');
      await consumeAttempt(db, 'resend', username);
      await consumeMailAllowance(db, username, networkOf(from), mailPerNetworkPerHour);
      const applicant = await findApplicantByEmail(db, username);
      // no account waiting: a stand-in mail, whose ticket behaves as a real one's
      const mail = await mailQueue.sendLater(async () => (applicant && !applicant.confirmed_at ? confirmationMail(applicant) : undefined));
      return { message: text(messages.resend_sent, { username }), mail };
    },

    /** Whether a mail went out (pending, delayed, sent, failed); unknown tickets are not found. */
    async mailStatus(body: MailStatusBody): Promise<{ status: MailStatus }> {
      const status = await mailQueue.status(body.mail);
      if (!status) throw new HttpError(404, messages.not_found, { code: 'NOT_FOUND' });
      return { status };
    },

    /**
     * A right code proves the mailbox. Only the browser that signed up (its cookie,
     * `browserProof`) also proves the password and answers of that sign-up are the mailbox
     * owner's: a code typed anywhere else confirms the address but keeps neither (someone
     * may have signed up with another's address), and a mailed link lets the owner choose
     * the password.
     */
    async confirm(body: ConfirmBody, browserProof?: string): Promise<Reply> {
      const { username, code } = validated('confirm', body, 'username', 'code');
      await consumeAttempt(db, 'confirm', username);
      // each check claims its try first, so guesses sent at once cannot pass the limit together
      const tries = await countAttempt(db, 'confirmFailures', username);
      const { max } = attemptLimits.confirmFailures;
      const applicant = await findApplicantByEmail(db, username);
      if (tries > max) {
        if (applicant) await deleteCode(db, applicant.id, 'confirm');
        throw new HttpError(400, messages.confirm_too_many, { code: 'CODE_VOID' });
      }
      const stored = applicant && !applicant.confirmed_at ? await findCode(db, applicant.id, 'confirm') : undefined;
      const matches = stored !== undefined && safeEqual(hmac(codeKey, code), stored.secret_hash);
      if (!matches) {
        if (tries >= max) {
          if (applicant) await deleteCode(db, applicant.id, 'confirm');
          throw new HttpError(400, messages.confirm_too_many, { code: 'CODE_VOID' });
        }
        throw new HttpError(400, messages.confirm_invalid, { code: 'CODE_INVALID', errors: { code: [messages.confirm_invalid] } });
      }
      if (stored.expires_at.getTime() < Date.now()) {
        throw new HttpError(400, messages.confirm_expired, { code: 'CODE_EXPIRED' });
      }
      if (!(await deleteCode(db, applicant!.id, 'confirm', stored.secret_hash))) {
        throw new HttpError(400, messages.confirm_invalid, { code: 'CODE_INVALID' });
      }
      const contested = applicant!.password_hash === CONTESTED;
      const fromSignupBrowser = !contested && browserProof !== undefined && await isSignupBrowser(db, applicant!.id, sha256(browserProof));
      if (!contested && !fromSignupBrowser) await contest(applicant!.id);
      await forgetSignupBrowsers(db, applicant!.id);
      await markConfirmed(db, applicant!.id);
      await resetAttempts(db, 'confirmFailures', username);
      if (!fromSignupBrowser) {
        sendInBackground(async () => {
          const { message, afterSent } = await resetMail(applicant!);
          await mailQueue.send(message, afterSent);
        });
        return { message: contested ? messages.confirm_contested : messages.confirm_other_browser };
      }
      return { message: messages.confirm_success };
    },

    /** A login for the profile's list of logins, once the caller has started the session. */
    recordLogin: (applicantId: string) => recordLogin(db, applicantId),

    /** Checks the credentials; the caller starts the session. */
    async login(body: LoginBody, from: string): Promise<Applicant> {
      const { username, password } = validated('login', body, 'username', 'password');
      // counted before the slow hash, in one statement: however many guesses arrive at once,
      // at most the limit are checked; a right password clears the count
      await consumeAttempt(db, 'loginFailures', username);
      const applicant = await findApplicantByEmail(db, username);
      const ok = await checkPassword(applicant, password, from);
      if (!applicant || !ok) throw new HttpError(400, messages.login_failed, { code: 'LOGIN_FAILED' });
      await resetAttempts(db, 'loginFailures', username);
      if (!applicant.confirmed_at) {
        throw new HttpError(403, messages.login_unconfirmed, { code: 'USER_NOT_CONFIRMED' });
      }
      return applicant;
    },

    async forgotPassword(body: ForgotPasswordBody, from: string): Promise<Delivery> {
      const { username } = validated('forgot', body, 'username');
      await consumeAttempt(db, 'forgot', username);
      await consumeMailAllowance(db, username, networkOf(from), mailPerNetworkPerHour);
      const applicant = await findApplicantByEmail(db, username);
      const mail = await mailQueue.sendLater(async () => (applicant ? resetMail(applicant) : undefined));
      return { message: text(messages.forgot_sent, { username }), mail };
    },

    /** Sets the new password and ends every session of the account. */
    async resetPassword(body: ResetPasswordBody, from: string): Promise<Reply> {
      const { username, password, id } = validated('reset', body, 'username', 'password', 'id');
      checkPasswordPolicy(password, username);
      await consumeAttempt(db, 'reset', username);
      const applicant = await findApplicantByEmail(db, username);
      const stored = applicant ? await findCode(db, applicant.id, 'reset') : undefined;
      const tokenHash = sha256(id);
      if (!applicant || !stored || !safeEqual(tokenHash, stored.secret_hash) || stored.expires_at.getTime() < Date.now()) {
        throw new HttpError(400, messages.reset_invalid, { code: 'RESET_INVALID' });
      }
      const passwordHash = await hashPassword(password, from);
      if (!(await deleteCode(db, applicant.id, 'reset', tokenHash))) {
        throw new HttpError(400, messages.reset_invalid, { code: 'RESET_INVALID' });
      }
      await setPasswordHash(db, applicant.id, passwordHash);
      await markConfirmed(db, applicant.id); // the link proved the mailbox, as a code would
      await deleteSessionsOf(db, applicant.id);
      await deleteCode(db, applicant.id, 'confirm');
      return { message: messages.reset_success };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
