import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState } from 'react';
import { formatPhone } from '../../../shared/text/formatters.ts';
import { phoneCandidate, usDigitsOf } from '../../../shared/text/phone-typed.ts';
import a11y from '../../../../schemas/text/accessibility.json';
import { ariaRequired, contextOf, describedByOf, fieldId } from '../form-context.ts';
import { FieldInput } from './FieldInput.tsx';

/** Room for what people type around the digits of a number abroad: spaces, dots, dashes, brackets. */
const TYPED_MAX_LENGTH = 30;

/**
 * A phone number: a US one is typed and shown as (ddd) ddd-dddd and stored as its 10 digits.
 * Anything else typed (a "+", more than 10 digits) is never cut short: it stays on screen as
 * typed and is checked when the field is left, as a date is. A number abroad is kept in E.164;
 * the question's schema pattern says whether it takes one (a parent's phone does), and its
 * message otherwise says where the number goes.
 */
export default function PhoneWidget(props: WidgetProps) {
  const { name, value, uiSchema, rawErrors, readonly, disabled, onChange, onBlur } = props;
  const context = contextOf(props);
  const id = fieldId(props);
  const [text, setText] = useState(() => formatPhone(String(value ?? '')));
  // what this field stored last, and the value it replaced: neither the form handing it back nor
  // the old value it shows again for a moment after may reformat the text being typed (as DateWidget)
  const committed = useRef<{ stored: string; replaced: string } | undefined>(undefined);
  useEffect(() => {
    const current = String(value ?? '');
    if (committed.current && (current === committed.current.stored || current === committed.current.replaced)) return;
    committed.current = undefined;
    setText(formatPhone(current));
  }, [value]);

  const store = (next: string) => {
    const previous = String(value ?? '');
    committed.current = { stored: next, replaced: committed.current?.stored ?? previous };
    if (next !== previous) onChange(next);
  };
  const type = (typed: string) => {
    const digits = usDigitsOf(typed);
    if (digits === undefined) {
      setText(typed); // a number abroad, or too long for a US one: kept as typed until the field is left
      return;
    }
    setText(formatPhone(digits));
    store(digits);
  };
  const leave = async (typed: string) => {
    const candidate = await phoneCandidate(typed);
    const problem = candidate ? await context.checkAnswer?.(name, candidate) : undefined;
    // kept even when refused: what was typed is not lost, and the message says what is wrong
    store(candidate);
    if (!problem && candidate.startsWith('+')) setText(candidate);
    context.reportLocalError(name, problem);
    onBlur(id, candidate);
  };

  const invalid = Boolean(rawErrors?.length || context.localErrors[name]);
  return (
    <FieldInput
      id={id}
      name={props.htmlName || id}
      type="tel"
      inputMode="tel"
      value={text}
      maxLength={TYPED_MAX_LENGTH}
      placeholder={a11y.phone_placeholder}
      autoComplete={(uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'tel-national'}
      readOnly={readonly}
      disabled={disabled}
      invalid={invalid}
      aria-invalid={invalid || undefined}
      aria-required={ariaRequired(props)}
      aria-describedby={describedByOf(props, invalid)}
      onValueChange={type}
      onBlur={(event) => void leave(event.target.value)}
    />
  );
}
