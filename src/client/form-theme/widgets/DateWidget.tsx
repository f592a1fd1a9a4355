import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { form } from '../../../shared/form/form-model-data.ts';
import { ariaRequired, describedBy, type FormContext } from '../form-context.ts';

/**
 * A date (stored YYYY-MM-DD, shown as the browser's MM/DD/YYYY). A date the schema
 * refuses is not stored: the answer is cleared and the reason shown at once.
 */
export default function DateWidget(props: WidgetProps) {
  const { name, value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur, registry } = props;
  const context = registry.formContext as FormContext;
  const [text, setText] = useState<string>(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  const page = form.fields[name]?.page;

  const commit = async (next: string, badInput: boolean) => {
    const candidate = badInput ? 'invalid' : next;
    const { validatePage } = await import('../../../shared/validation/page-validation.ts');
    const problem = candidate && page ? validatePage(page, { [name]: candidate })[name]?.[0] : undefined;
    context.reportLocalError(name, problem);
    const stored = problem ? '' : next;
    if (stored !== (value ?? '')) onChange(stored);
  };

  const invalid = Boolean(rawErrors?.length || context.localErrors[name]);
  return (
    <input
      id={name}
      name={name}
      type="date"
      className={`bp6-input date-input${invalid ? ' bp6-intent-danger' : ''}`}
      value={text}
      min="1900-01-01"
      max="2100-12-31"
      readOnly={readonly}
      disabled={disabled}
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'off'}
      aria-invalid={invalid || undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: invalid })}
      onChange={(event) => {
        setText(event.target.value);
        if (event.target.value || !event.target.validity.badInput) void commit(event.target.value, false);
      }}
      onBlur={(event) => {
        void commit(event.target.value, event.target.validity.badInput);
        onBlur(name, event.target.value);
      }}
    />
  );
}
