import type { WidgetProps } from '@rjsf/utils';
import TextWidget from './TextWidget.tsx';

export default function EmailWidget(props: WidgetProps) {
  return <TextWidget {...props} type="email" options={{ ...props.options, inputMode: 'email' }} />;
}
