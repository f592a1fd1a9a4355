import type { WidgetProps } from '@rjsf/utils';
import { formatThreeTwoFour } from '../../../shared/text/formatters.ts';
import { ariaRequired, describedByOf, fieldId } from '../form-context.ts';
import { FieldInput } from './FieldInput.tsx';

const inputModes: Record<string, 'numeric' | 'decimal' | 'tel' | 'email' | 'text'> = {
  numeric: 'numeric', decimal: 'decimal', tel: 'tel', zip: 'numeric', postal: 'numeric', email: 'email', text: 'text',
};

/** A one-line answer. Text inputs default to 45 characters (spec section 9). */
export default function TextWidget(props: WidgetProps) {
  const { value, schema, uiSchema, options, rawErrors, readonly, disabled, onChange, onBlur, onFocus } = props;
  const id = fieldId(props);
  const inputMode = inputModes[String(options.inputMode ?? '')];
  const mask = options.inputMode === 'zip' ? /[^0-9-]/g : options.inputMode === 'numeric' ? /[^0-9]/g : undefined;
  // 'ui:options': { "format": "3-2-4" } shows and stores social-security-style values as ddd-dd-dddd
  const format = options.format === '3-2-4' ? formatThreeTwoFour : (text: string) => text;
  return (
    <FieldInput
      id={id}
      name={props.htmlName || id}
      type={props.type ?? 'text'}
      value={format(String(value ?? ''))}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : 45}
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'off'}
      inputMode={inputMode}
      placeholder={props.placeholder || undefined}
      readOnly={readonly}
      disabled={disabled}
      invalid={Boolean(rawErrors?.length)}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={describedByOf(props)}
      onValueChange={(next) => onChange(format(mask ? next.replace(mask, '') : next))}
      onBlur={(event) => onBlur(id, event.target.value)}
      onFocus={(event) => onFocus(id, event.target.value)}
    />
  );
}
