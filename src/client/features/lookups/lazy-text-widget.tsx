import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useLayoutEffect, useRef, type ComponentType } from 'react';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';
import { onDemand, useOnDemand } from '../../lib/on-demand.ts';

type Widget = ComponentType<WidgetProps>;

/** What a look-up loaded by lazyTextWidget is given besides the widget's props. */
export interface ReplacedTextProps {
  /** the text in the plain field the look-up replaces, when it replaces one */
  replacedText?: string;
}

/**
 * A look-up widget loaded when it first shows, so a first visit does not carry it. Until it
 * arrives the answer is a plain text field, which is also what the server draws and what a
 * drawn section is taken over as (on-demand.ts), whatever another section has loaded since;
 * the look-up starts from the text in that field (keys typed as it is replaced may not have
 * reached the answer yet), and if the field has the focus, the focus and the caret move over
 * to the look-up. If it cannot be loaded (server down), the text stays.
 */
export function lazyTextWidget(load: () => Promise<{ default: ComponentType<WidgetProps & ReplacedTextProps> }>): Widget {
  const code = onDemand(async () => (await load()).default);

  return function LazyTextWidget(props: WidgetProps) {
    const Loaded = useOnDemand(code);
    // the plain field is on the page; whether it has the focus is read as the look-up replaces it
    const plainShown = useRef(false);
    const takeFocus = useRef(false);
    const replacedText = useRef<string | undefined>(undefined);
    if (Loaded && plainShown.current) {
      plainShown.current = false;
      const plain = document.getElementById(props.name);
      takeFocus.current = document.activeElement === plain;
      if (plain instanceof HTMLInputElement) replacedText.current = plain.value;
    }

    useEffect(() => {
      if (!Loaded) code.load().catch(() => {}); // a failure leaves the text field; tried again at the next show
    }, [Loaded]);

    useLayoutEffect(() => {
      if (!Loaded) {
        plainShown.current = true;
        return;
      }
      if (!takeFocus.current) return;
      takeFocus.current = false;
      const input = document.getElementById(props.name) as HTMLInputElement | null;
      input?.focus();
      input?.setSelectionRange(input.value.length, input.value.length);
    }, [Loaded, props.name]);

    return Loaded ? <Loaded {...props} replacedText={replacedText.current} /> : <TextWidget {...props} />;
  };
}
