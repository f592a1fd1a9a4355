import type { ApplicationErrors } from '../../session/application-errors.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { saveValidations } from './api/lifecycle-api.ts';

/** Errors are reported to the server only when there is at least one (spec section 4). */
export async function reportErrors(found: ApplicationErrors): Promise<void> {
  const flat = Object.assign({}, ...Object.values(found)) as FieldErrors;
  if (Object.keys(flat).length) await saveValidations(flat).catch(() => {});
}
