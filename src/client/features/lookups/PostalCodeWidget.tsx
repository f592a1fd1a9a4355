import type { WidgetProps } from '@rjsf/utils';
import { useMemo } from 'react';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';
import { useAnswersSelector } from '../../session/answers-store.ts';

/**
 * `ui:widget: "postalCode"` (a school's ZIP): the digit keyboard for a US ZIP (country blank
 * or USA), the full one abroad.
 */
export default function PostalCodeWidget(props: WidgetProps) {
  const countryKey = `${props.name.slice(0, -'zip'.length)}country`;
  const watched = useMemo(() => [countryKey], [countryKey]);
  const country = useAnswersSelector(watched, (answers) => String(answers[countryKey] ?? ''));
  const inUs = !country || country === 'USA';
  return <TextWidget {...props} options={{ ...props.options, inputMode: inUs ? 'postal' : 'text' }} />;
}
