import { Checkbox } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaRequired, describedByOf, fieldId } from '../form-context.ts';

/** A yes/no box whose label is the question (with the * of a required answer). */
export default function CheckboxWidget(props: WidgetProps) {
  const { value, label, schema, rawErrors, readonly, disabled, onChange } = props;
  const required = ariaRequired(props);
  const id = fieldId(props);
  const invalid = Boolean(rawErrors?.length);
  return (
    <Checkbox
      id={id}
      name={props.htmlName || id}
      checked={value === true}
      disabled={disabled || readonly}
      className={invalid ? 'check-invalid' : undefined}
      labelElement={(
        <>
          {label || String(schema.title ?? '')}
          {required && <span className="required-mark" aria-hidden="true"> *</span>}
        </>
      )}
      aria-required={required}
      aria-invalid={invalid || undefined}
      aria-describedby={describedByOf(props, invalid)}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
