import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * An international phone number as people write it ("+44 (0)20 7946-0958", "0044 20 7946
 * 0958") in E.164 ("+442079460958"), the form it is checked and stored in (spec-decisions
 * 17). libphonenumber knows each country's trunk prefixes; what it cannot read keeps only
 * its digits and a leading +, so the schema's pattern still says what is wrong. A number
 * written without its country code ("020 7946 0958") is kept as written: its digits alone
 * would be another number, and the pattern's message says what is missing.
 */
export function toE164(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return '';
  if (!/^(\+|00)/.test(trimmed)) return trimmed;
  const international = trimmed.replace(/^00/, '+');
  const parsed = parsePhoneNumberFromString(international);
  if (parsed) return parsed.number;
  return international.replace(/(?!^\+)[^0-9]/g, '');
}
