/**
 * A reminder e-mail, in the applicant's language, from the rule's texts (schemas/reminders.json
 * and its Spanish): the deadline as the language writes it, the page they were last on, a
 * link to the login page (which takes a returning applicant back to that page, and logs
 * nobody in by itself), and RFC 8058 one-click unsubscribe beside a plain link.
 */
import partner from '../../../schemas/partner.json';
import reminders from '../../../schemas/reminders.json';
import frame from '../../../schemas/text/frame.json';
import { deadlineText, type Deadline } from '../../shared/deadlines/cycle-dates.ts';
import type { ReminderRule } from '../../shared/deadlines/reminder-rules.ts';
import { LANGUAGE_PARAM, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { fileIn } from '../i18n/language-texts.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { oneLine, senderName } from '../mail/mail-texts.ts';

export interface ReminderMailInput {
  reminderId: string;
  to: string;
  language: Language;
  rule: ReminderRule;
  deadline: Deadline;
  daysLeft: number;
  lastPage: string | null;
  /** the applicant's first name as they gave it, if any */
  name: string | null;
  publicUrl: string;
  token: string;
}

/** Where the one-click POST goes (List-Unsubscribe), and the page a person opens (the plain link). */
export function unsubscribeUrls(publicUrl: string, token: string, language: Language): { oneClick: string; page: string } {
  const query = `token=${encodeURIComponent(token)}`;
  return { oneClick: `${publicUrl}/public/unsubscribe?${query}`, page: `${publicUrl}/unsubscribe?${query}${language === SOURCE_LANGUAGE ? '' : `&${LANGUAGE_PARAM}=${language}`}` };
}

export function reminderMail(input: ReminderMailInput): MailMessage {
  const { language, rule, publicUrl } = input;
  const texts = fileIn(language, 'reminders.json', reminders).rules.find((item) => item.id === rule.id) ?? rule;
  const steps = fileIn(language, 'text/frame.json', frame).steps;
  const page = steps.find((step) => step.path === input.lastPage) ?? steps[0]!;
  const urls = unsubscribeUrls(publicUrl, input.token, language);
  const values = {
    deadline: deadlineText(input.deadline.date, language),
    days: String(input.daysLeft),
    page: page.label,
    name: input.name ? oneLine(input.name, 100) : input.to,
    login_url: `${publicUrl}/login${language === SOURCE_LANGUAGE ? '' : `?${LANGUAGE_PARAM}=${language}`}`,
    unsubscribe_url: urls.page,
    partner: partner.name,
    short_name: partner.short_name,
    help_email: partner.help_email,
  };
  return {
    to: input.to,
    // sent under the office's name in the applicant's language, as every other mail is
    senderName: senderName(language),
    subject: oneLine(fillTemplate(texts.subject, values)),
    text: fillTemplate(texts.text, values),
    // the same id on every attempt: a receiver that got a retried message can tell
    messageId: `<reminder-${input.reminderId}@${new URL(publicUrl).hostname}>`,
    headers: {
      'List-Unsubscribe': `<${urls.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
