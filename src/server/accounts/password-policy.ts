import { dictionary } from '@zxcvbn-ts/language-common';
import messages from '../../../schemas/auth/messages.json';

/**
 * What the schema's checklist cannot see: passwords from breach lists (ASVS 2.1.7,
 * ~49,000 common passwords bundled with zxcvbn-ts) and simple variants of them, such as
 * "Password1234!", and passwords built from the e-mail address.
 */
const common = new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));

function coreWord(password: string): string {
  return password.toLowerCase().replace(/^[^a-z]+|[^a-z]+$/g, '');
}

export function passwordProblem(password: string, email: string): string | undefined {
  const lower = password.toLowerCase();
  const core = coreWord(password);
  if (common.has(lower) || (core.length >= 4 && core.length * 2 >= lower.length && common.has(core))) {
    return messages.password_common;
  }
  const localPart = email.toLowerCase().split('@')[0] ?? '';
  if (localPart.length >= 4 && lower.includes(localPart)) return messages.password_same_as_email;
  return undefined;
}
