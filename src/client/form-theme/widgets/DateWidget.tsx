import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { ariaRequired, contextOf, describedByOf, fieldId } from '../form-context.ts';

/**
 * A date (stored YYYY-MM-DD, shown as the browser's MM/DD/YYYY), checked when the field is
 * left: while a year is typed digit by digit it reads 0002, 0020, 0200 on the way to 2002.
 * A date the form refuses (formContext.checkAnswer) is not stored (the answer is cleared) but stays on screen with
 * the reason, so a slip while editing a saved date never empties the field.
 */
export default function DateWidget(props: WidgetProps) {
  const { name, value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur } = props;
  const context = contextOf(props);
  const id = fieldId(props);
  const [text, setText] = useState<string>(value ?? '');
  // what this field last stored, and the value it replaced: neither its own clearing nor the old
  // value the form shows again for a moment after it may wipe the text being corrected
  const committed = useRef<{ stored: string; replaced: string } | undefined>(undefined);
  useEffect(() => {
    const current = value ?? '';
    if (committed.current && (current === committed.current.stored || current === committed.current.replaced)) return;
    committed.current = undefined;
    setText(current);
  }, [value]);
  const commit = async (next: string, badInput: boolean) => {
    const candidate = badInput ? 'invalid' : next;
    const problem = candidate ? await context.checkAnswer?.(name, candidate) : undefined;
    const stored = problem ? '' : next;
    committed.current = { stored, replaced: value ?? '' };
    if (stored !== (value ?? '')) onChange(stored);
    context.reportLocalError(name, problem);
  };

  const invalid = Boolean(rawErrors?.length || context.localErrors[name]);
  return (
    <input
      id={id}
      name={props.htmlName || id}
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
      aria-describedby={describedByOf(props, invalid)}
      onChange={(event) => setText(event.target.value)}
      onBlur={(event) => {
        void commit(event.target.value, event.target.validity.badInput);
        onBlur(id, event.target.value);
      }}
    />
  );
}
