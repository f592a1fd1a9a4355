import type { ErrorObject, ValidateFunction } from 'ajv';

/** Messages per field key, de-duplicated, in the order the schema reports them. */
export type FieldErrors = Record<string, string[]>;

/**
 * The field an ajv error belongs to. ajv-errors reports a `required` message on the
 * parent object (ajv-errors #148), so it is moved to the missing property.
 */
function fieldOf(error: ErrorObject): string {
  const nested = (error.params as { errors?: ErrorObject[] }).errors?.[0];
  const missing = (nested?.params as { missingProperty?: string } | undefined)?.missingProperty ??
    (error.params as { missingProperty?: string }).missingProperty;
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  if (missing) return path ? `${path}.${missing}` : missing;
  return path;
}

export function toFieldErrors(errors: readonly ErrorObject[] | null | undefined): FieldErrors {
  const result: FieldErrors = {};
  for (const error of errors ?? []) {
    const field = fieldOf(error);
    const message = error.message ?? '';
    const list = (result[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return result;
}

export function runValidator(validate: ValidateFunction, data: unknown): FieldErrors {
  return validate(data) ? {} : toFieldErrors(validate.errors);
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.values(errors).some((messages) => messages.length > 0);
}
