import type { ValidateFunction } from 'ajv';
import definitions from '../../../schemas/auth/definitions.json';
import * as validators from '../generated/validators.js';
import { runValidator, type FieldErrors } from '../validation/field-errors.ts';

export type AuthFormName = 'signup' | 'confirm' | 'login' | 'resend' | 'forgot' | 'reset';

const formValidators: Record<AuthFormName, ValidateFunction> = {
  signup: validators.auth_signup,
  confirm: validators.auth_confirm,
  login: validators.auth_login,
  resend: validators.auth_resend,
  forgot: validators.auth_forgot,
  reset: validators.auth_reset,
};

/**
 * Validates an account form exactly as the server does; messages come from schemas/auth,
 * compiled into the validators: the browser's build of a language has them in it (the
 * server's say English, and it translates its replies on the way out).
 */
export function validateAuthForm(form: AuthFormName, data: unknown): FieldErrors {
  return runValidator(formValidators[form], data);
}

export interface ChecklistItem {
  label: string;
  met: boolean;
}

const passwordRules = definitions.definitions.new_password.allOf.map((rule, index) => ({
  label: rule.errorMessage,
  validate: (validators as unknown as Record<string, ValidateFunction>)[`password_rule_${index}`]!,
}));

/** The live password checklist: one line per rule of the new-password definition. */
export function passwordChecklist(password: string): ChecklistItem[] {
  return passwordRules.map(({ label, validate }) => ({ label, met: validate(password) }));
}
