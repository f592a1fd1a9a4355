import type { FieldProps } from '@rjsf/utils';

/**
 * Stands in for RJSF core's array, oneOf/anyOf and layout-grid fields (vite.config.ts
 * `standIns`): the form model has no arrays and no oneOf/anyOf (repeaters are flat keys;
 * tests/unit/form-model-shape.test.ts), so about 8 KB gzip of fields that never render
 * are left out. A schema that needed one shows this instead of a field.
 */
export default function UnusedField({ fieldPathId }: FieldProps) {
  return <p className="unsupported-field">{`${fieldPathId.$id}: this kind of field is not in the build (vite.config.ts standIns)`}</p>;
}
