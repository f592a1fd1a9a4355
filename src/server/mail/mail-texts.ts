import partner from '../../../schemas/partner.json';
import mail from '../../../schemas/text/mail.json';
import { isLanguage, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { fileIn } from '../i18n/language-texts.ts';

export type MailTextName = Exclude<keyof typeof mail, 'description'>;

/** The language an account's mails are written in: its own, or English for a value the application does not speak. */
export const mailLanguage = (language: string | null | undefined): Language => (isLanguage(language) ? language : SOURCE_LANGUAGE);

/** The name mails in `language` are sent under ("Admisiones de Concordia Heights University"). */
export const senderName = (language: Language): string => mailText(language, 'sender_name');

/** An e-mail's subject or text (schemas/text/mail.json) in `language`, its placeholders filled. */
export function mailText(language: Language, name: MailTextName, values: Record<string, string> = {}): string {
  return fillTemplate(fileIn(language, 'text/mail.json', mail)[name], { partner: partner.name, short_name: partner.short_name, ...values });
}

/** One printable line (at most `max` characters): what an applicant typed never breaks a header or a mail's layout. */
export const oneLine = (text: string, max = Number.POSITIVE_INFINITY): string =>
  text.replace(/[\r\n\t\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim().slice(0, max);

/** The answers of `keys` that are given, joined by spaces ("Ada Lovelace" from first_name and last_name). */
export const answersAsName = (answers: Readonly<Record<string, string | boolean | undefined>>, keys: readonly string[] = ['first_name', 'last_name']): string =>
  keys.map((key) => answers[key]).filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
