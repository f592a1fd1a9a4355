import type { WidgetProps } from '@rjsf/utils';
import { useMemo } from 'react';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';
import { useAnswersSelector } from '../../session/session-hooks.ts';

/**
 * `ui:widget: "postalCode"` (a school's ZIP): the digit keyboard for a US ZIP (country blank
 * or USA), the full one abroad. The country's answer is named by `ui:options.keys.country`.
 */
export default function PostalCodeWidget(props: WidgetProps) {
  const countryKey = (props.options.keys as { country?: string } | undefined)?.country ?? '';
  const watched = useMemo(() => [countryKey], [countryKey]);
  const country = useAnswersSelector(watched, (answers) => String(answers[countryKey] ?? ''));
  const inUs = !country || country === 'USA';
  return <TextWidget {...props} options={{ ...props.options, inputMode: inUs ? 'postal' : 'text' }} />;
}
