import { Radio, RadioGroup } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { describedBy, type FormContext } from '../form-context.ts';
import { fieldOptions } from '../field-options.ts';

/** One choice among a few. The field template supplies the fieldset and its legend. */
export default function RadioWidget(props: WidgetProps) {
  const { name, value, options, uiSchema, rawErrors, readonly, disabled, onChange, registry } = props;
  const items = fieldOptions(name, registry.formContext as FormContext);
  return (
    <RadioGroup
      name={name}
      selectedValue={value ?? ''}
      inline={Boolean(options.inline)}
      disabled={disabled || readonly}
      onChange={(event) => onChange(event.currentTarget.value)}
      className={rawErrors?.length ? 'radio-invalid' : undefined}
    >
      {items.map((item, index) => (
        <Radio
          key={item.value}
          id={index === 0 ? name : `${name}-${item.value}`}
          value={item.value}
          label={item.label}
          aria-describedby={describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) })}
          aria-invalid={rawErrors?.length ? true : undefined}
        />
      ))}
    </RadioGroup>
  );
}
