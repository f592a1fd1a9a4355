import type { WidgetProps } from '@rjsf/utils';
import { contextOf } from '../form-context.ts';
import TextWidget from './TextWidget.tsx';

/** Room for what people type around the digits: spaces, dots, dashes, brackets. */
const TYPED_MAX_LENGTH = 30;

/**
 * An international number: a text input typed as people write it, turned into E.164 when
 * the field is left, before it is checked and saved (libphonenumber loads only then), and
 * checked there and then, as a phone or a date is. A number typed without its country code
 * ("20 7946 0958") stays as typed with the field's message: turned into bare digits it
 * would have been saved as another number, and said nothing until Submit.
 */
export default function InternationalPhoneWidget(props: WidgetProps) {
  const { name, schema, options, onChange, onBlur } = props;
  const context = contextOf(props);
  const leave = async (id: string, typed: string) => {
    const { toE164 } = await import('../../../shared/text/phone-international.ts');
    const candidate = toE164(typed);
    if (candidate !== typed) onChange(candidate);
    context.reportLocalError(name, candidate ? await context.checkAnswer?.(name, candidate) : undefined);
    onBlur(id, candidate);
  };
  // the message given on leaving marks the field invalid and is read with it, as the form's own are
  const local = context.localErrors[name];
  const rawErrors = local ? [...(props.rawErrors ?? []), local] : props.rawErrors;
  return (
    <TextWidget {...props} rawErrors={rawErrors} type="tel" schema={{ ...schema, maxLength: TYPED_MAX_LENGTH }} options={{ ...options, inputMode: 'tel' }}
      onBlur={(id, typed: string) => void leave(id, typed)} />
  );
}
