import isObject from '@rjsf/utils/lib/isObject.js';

/**
 * Stands in for @rjsf/utils' omitExtraData module (vite.config.ts `standIns`): our forms
 * never set `omitExtraData`, so its schema walker is never called. `isValueEmpty` is kept
 * as the library has it, since removeOptionalEmptyObjects uses it.
 */
const leftOut = (name: string): never => {
  throw new Error(`${name}: the build leaves out RJSF's omitExtraData (vite.config.ts standIns)`);
};

export default function omitExtraData(): never {
  return leftOut('omitExtraData');
}

export function getUsedFormData(): never {
  return leftOut('getUsedFormData');
}

export function getFieldNames(): never {
  return leftOut('getFieldNames');
}

/** As @rjsf/utils 6.11: null, undefined, '', an empty array, or an object of empty values. */
export function isValueEmpty(value: unknown): boolean {
  if (value == null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.values(value as Record<string, unknown>).every(isValueEmpty);
  return false;
}
