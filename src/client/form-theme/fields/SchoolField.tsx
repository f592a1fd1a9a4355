import { getDefaultRegistry } from '@rjsf/core';
import type { FieldProps } from '@rjsf/utils';

const ObjectField = getDefaultRegistry().fields.ObjectField!;

/**
 * The school search block (name, CEEB, address). Until the look-up service answers it
 * works as free text: the applicant types the school's details.
 */
export default function SchoolField(props: FieldProps) {
  return <ObjectField {...props} />;
}
