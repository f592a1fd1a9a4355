/**
 * The mail that tells an applicant their application arrived: sent once a submit has
 * committed, in the account's language, with the time of submission as the applicant
 * reads dates and in the university's time zone, where the PDF copy is, and how to
 * reach the admissions office. Its texts are in schemas/text/mail.json.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import documents from '../../../schemas/documents.json';
import partner from '../../../schemas/partner.json';
import type { Language } from '../../shared/i18n/languages.ts';
import { findApplicantById } from '../db/repositories/applicant-repository.ts';
import { answersOf } from '../db/repositories/profile-repository.ts';
import { submittedAt } from '../db/repositories/webhook-repository.ts';
import type { Database } from '../db/tables.ts';
import { fileIn } from '../i18n/language-texts.ts';
import type { MailQueue } from './mail-queue.ts';
import type { MailMessage } from './mailer.ts';
import { answersAsName, mailLanguage, mailText, senderName } from './mail-texts.ts';

/** "November 28, 2026 at 5:05 PM Central Standard Time", "28 de noviembre de 2026 a las 17:05 hora estándar central". */
export function submissionTime(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(language, {
    year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: partner.time_zone, timeZoneName: 'long',
  }).format(at);
}

/** The mail for an applicant who submitted at `at`; `name` is their legal name as they gave it. */
export function submissionMail(to: string, language: Language, name: string, at: Date, publicUrl: string): MailMessage {
  const { address } = partner;
  const values = {
    name,
    submitted_at: submissionTime(at, language),
    login_url: `${publicUrl}/login`,
    download_pdf: fileIn(language, 'documents.json', documents).messages.download_pdf,
    help_email: partner.help_email,
    phone: partner.phone,
    office: fileIn(language, 'partner.json', partner).admissions_office,
    address: `${address.line_1}\n${address.city}, ${address.state} ${address.zip}`,
  };
  return { to, subject: mailText(language, 'submitted_subject', values), text: mailText(language, 'submitted_text', values), senderName: senderName(language) };
}

export function createSubmissionMail(options: { db: Kysely<Database>; mailQueue: MailQueue; publicUrl: () => string; log: FastifyBaseLogger }) {
  const { db, mailQueue, publicUrl, log } = options;

  async function send(applicantId: string): Promise<void> {
    const [applicant, submission, answers] = await Promise.all([findApplicantById(db, applicantId), submittedAt(db, applicantId), answersOf(db, applicantId)]);
    if (!applicant || !submission) return;
    const name = answersAsName(answers);
    await mailQueue.send(submissionMail(applicant.email, mailLanguage(applicant.language), name || applicant.email, submission.submitted_at, publicUrl()));
  }

  return {
    /** Called once a submit has committed; returns at once (the mail queue retries the sending). */
    applicationSubmitted(applicantId: string): void {
      send(applicantId).catch((error) => log.error({ err: error, applicant: applicantId }, 'the submission mail was not queued'));
    },
  };
}

export type SubmissionMail = ReturnType<typeof createSubmissionMail>;
