import { HTMLSelect } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaRequired, describedBy, type FormContext } from '../form-context.ts';
import { fieldOptions } from '../field-options.ts';

export const BLANK_OPTION = '--';

/**
 * A list answer: '--' first, then the options that apply to the current answers.
 * `describedBy` replaces the ids of the help and messages (a month/year pair shares one).
 */
export default function SelectWidget(props: WidgetProps & { describedBy?: string }) {
  const { name, value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur, registry } = props;
  const items = fieldOptions(name, registry.formContext as FormContext);
  return (
    <HTMLSelect
      id={name}
      name={name}
      value={value ?? ''}
      disabled={disabled || readonly}
      fill
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'off'}
      aria-invalid={rawErrors?.length ? true : undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={'describedBy' in props ? props.describedBy : describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) })}
      className={rawErrors?.length ? 'field-invalid' : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => onBlur(name, event.currentTarget.value)}
    >
      <option value="">{BLANK_OPTION}</option>
      {items.map((item) => <option key={item.value} value={item.value}>{item.label}</option>)}
    </HTMLSelect>
  );
}
