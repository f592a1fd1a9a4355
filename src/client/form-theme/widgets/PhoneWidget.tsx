import type { WidgetProps } from '@rjsf/utils';
import { digitsOf, formatPhone } from '../../../shared/text/formatters.ts';
import a11y from '../../../../schemas/text/accessibility.json';
import { ariaRequired, describedByOf, fieldId } from '../form-context.ts';
import { FieldInput } from './FieldInput.tsx';

/** A US phone number: typed and shown as (ddd) ddd-dddd, stored as its 10 digits. */
export default function PhoneWidget(props: WidgetProps) {
  const { value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur } = props;
  const id = fieldId(props);
  return (
    <FieldInput
      id={id}
      name={props.htmlName || id}
      type="tel"
      inputMode="tel"
      value={formatPhone(String(value ?? ''))}
      maxLength={14}
      placeholder={a11y.phone_placeholder}
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'tel-national'}
      readOnly={readonly}
      disabled={disabled}
      invalid={Boolean(rawErrors?.length)}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={describedByOf(props)}
      onValueChange={(next) => onChange(digitsOf(next, 10))}
      onBlur={() => onBlur(id, value)}
    />
  );
}
