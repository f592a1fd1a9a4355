import type { WidgetProps } from '@rjsf/utils';
import TextWidget from './TextWidget.tsx';

/** Room for what people type around the digits: spaces, dots, dashes, brackets. */
const TYPED_MAX_LENGTH = 30;

/**
 * An international number: a text input typed as people write it, turned into E.164 when
 * the field is left, before it is checked and saved (libphonenumber loads only then).
 */
export default function InternationalPhoneWidget(props: WidgetProps) {
  const { schema, options, onChange, onBlur } = props;
  const leave = async (id: string, typed: string) => {
    const { toE164 } = await import('../../../shared/text/phone-international.ts');
    const normalised = toE164(typed);
    if (normalised !== typed) onChange(normalised);
    onBlur(id, normalised);
  };
  return (
    <TextWidget {...props} type="tel" schema={{ ...schema, maxLength: TYPED_MAX_LENGTH }} options={{ ...options, inputMode: 'tel' }}
      onBlur={(id, typed: string) => void leave(id, typed)} />
  );
}
