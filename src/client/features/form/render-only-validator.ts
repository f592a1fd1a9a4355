import type { ValidatorType } from '@rjsf/utils';

/**
 * RJSF here only renders. Validation runs through the page validators compiled ahead of
 * time from the same schemas (src/shared/validation/page-validation.ts), on blur and on
 * navigation, and reaches the fields as `extraErrors`. The part schemas hold no
 * conditionals, so RJSF never needs to validate to decide what to render.
 */
export const renderOnlyValidator: ValidatorType = {
  validateFormData: () => ({ errors: [], errorSchema: {} }),
  isValid: () => true,
  rawValidation: () => ({ errors: [] }),
};
