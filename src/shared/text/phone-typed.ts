/**
 * What a phone field stores for what was typed (spec-decisions 17): a US number as its 10
 * digits; anything else is never cut short. A number abroad is kept in E.164 ("+" and up to
 * 15 digits), so the schema's pattern decides whether the question takes it.
 */

/** The digits of a US number as it is typed, or undefined once it cannot be one (a "+", "00", more than 10 digits). */
export function usDigitsOf(typed: string): string | undefined {
  const trimmed = typed.trim();
  if (trimmed.startsWith('+') || trimmed.startsWith('00')) return undefined;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length > 10 ? undefined : digits;
}

const NANP_E164 = /^\+1([2-9][0-9]{9})$/;

/**
 * The value stored when the field is left: a number written with its country code ("+44 …",
 * "0044 …") in E.164, whether or not the question takes it (its pattern says); a +1 number is
 * a US one, kept as its 10 digits as if typed without the country code; else the digits typed.
 */
export async function phoneCandidate(typed: string): Promise<string> {
  const trimmed = typed.trim();
  if (!trimmed) return '';
  const us = usDigitsOf(trimmed);
  if (us !== undefined) return us;
  const digits = trimmed.replace(/\D/g, '');
  const international = trimmed.startsWith('+') || trimmed.startsWith('00');
  if (!international && digits.length === 11 && digits.startsWith('1')) return digits.slice(1);
  if (!international) return digits;
  // libphonenumber's metadata loads only for a number written with its country code
  const { toE164 } = await import('./phone-international.ts');
  const e164 = toE164(trimmed);
  return NANP_E164.exec(e164)?.[1] ?? e164;
}
