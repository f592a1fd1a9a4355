import { InputGroup } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { digitsOf, formatPhone } from '../../../shared/text/formatters.ts';
import a11y from '../../../../schemas/text/accessibility.json';
import { ariaRequired, describedBy } from '../form-context.ts';

/** A US phone number: typed and shown as (ddd) ddd-dddd, stored as its 10 digits. */
export default function PhoneWidget(props: WidgetProps) {
  const { name, value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur } = props;
  return (
    <InputGroup
      id={name}
      name={name}
      type="tel"
      inputMode="tel"
      value={formatPhone(String(value ?? ''))}
      maxLength={14}
      placeholder={a11y.phone_placeholder}
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'tel-national'}
      readOnly={readonly}
      disabled={disabled}
      intent={rawErrors?.length ? 'danger' : 'none'}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) })}
      onValueChange={(next) => onChange(digitsOf(next, 10))}
      onBlur={() => onBlur(name, value)}
    />
  );
}
