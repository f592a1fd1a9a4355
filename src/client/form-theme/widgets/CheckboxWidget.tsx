import { Checkbox } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { describedBy } from '../form-context.ts';

/** A yes/no box whose label is the question. */
export default function CheckboxWidget(props: WidgetProps) {
  const { name, value, label, schema, uiSchema, rawErrors, readonly, disabled, onChange } = props;
  return (
    <Checkbox
      id={name}
      name={name}
      checked={value === true}
      disabled={disabled || readonly}
      label={label || String(schema.title ?? '')}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-describedby={describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) })}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
