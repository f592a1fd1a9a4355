import { HTMLSelect } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { ariaRequired, choicesOf, describedByOf, fieldId } from '../form-context.ts';

export const BLANK_OPTION = '--';

/**
 * A list answer: '--' first, then the choices that apply now (the form owner's, narrowed
 * by other answers, else the schema's enum); several at once for an array of choices
 * (`multiple`: a list box, as Blueprint's select takes one). `describedBy` replaces the ids
 * of the help and messages (a month/year pair shares one).
 */
export default function SelectWidget(props: WidgetProps & { describedBy?: string }) {
  const { value, uiSchema, rawErrors, readonly, disabled, multiple, onChange, onBlur } = props;
  const id = fieldId(props);
  const items = choicesOf(props);
  const common = {
    id,
    name: props.htmlName || id,
    disabled: disabled || readonly,
    autoComplete: (uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'off',
    'aria-invalid': rawErrors?.length ? true : undefined,
    'aria-required': ariaRequired(props),
    'aria-describedby': 'describedBy' in props ? props.describedBy : describedByOf(props),
  };
  const options = items.map((item) => <option key={item.value} value={item.value}>{item.label}</option>);
  if (multiple) {
    const chosen = (select: HTMLSelectElement) => [...select.selectedOptions].map((option) => option.value);
    return (
      <select
        {...common}
        multiple
        className={`bp6-input select-multiple${rawErrors?.length ? ' field-invalid' : ''}`}
        value={((value ?? []) as unknown[]).map(String)}
        onChange={(event) => onChange(chosen(event.currentTarget))}
        onBlur={(event) => onBlur(id, chosen(event.currentTarget))}
      >
        {options}
      </select>
    );
  }
  return (
    <HTMLSelect
      {...common}
      value={value ?? ''}
      fill
      className={rawErrors?.length ? 'field-invalid' : undefined}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => onBlur(id, event.currentTarget.value)}
    >
      <option value="">{BLANK_OPTION}</option>
      {options}
    </HTMLSelect>
  );
}
