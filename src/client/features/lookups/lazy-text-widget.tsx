import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useLayoutEffect, useRef, type ComponentType } from 'react';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';
import { onDemand, useOnDemand } from '../../lib/on-demand.ts';

type Widget = ComponentType<WidgetProps>;

/**
 * A look-up widget loaded when it first shows, so a first visit does not carry it. Until it
 * arrives the answer is a plain text field, which is also what the server draws and what a
 * drawn section is taken over as (on-demand.ts), whatever another section has loaded since;
 * if that field has the focus, the focus and the caret move over to the look-up. If it cannot
 * be loaded (server down), the text stays.
 */
export function lazyTextWidget(load: () => Promise<{ default: Widget }>): Widget {
  const code = onDemand(async () => (await load()).default);

  return function LazyTextWidget(props: WidgetProps) {
    const Loaded = useOnDemand(code);
    // the plain field is on the page; whether it has the focus is read as the look-up replaces it
    const plainShown = useRef(false);
    const takeFocus = useRef(false);
    if (Loaded && plainShown.current) {
      plainShown.current = false;
      takeFocus.current = document.activeElement?.id === props.name;
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

    return Loaded ? <Loaded {...props} /> : <TextWidget {...props} />;
  };
}
