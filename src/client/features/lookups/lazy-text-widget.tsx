import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState, type ComponentType } from 'react';
import TextWidget from '../../form-theme/widgets/TextWidget.tsx';

type Widget = ComponentType<WidgetProps>;

/**
 * A look-up widget loaded when it first shows, so a first visit does not carry it. Until it
 * arrives the answer is a plain text field; if that field has the focus, the focus and the
 * caret move over to the look-up. If it cannot be loaded (server down), the text stays.
 */
export function lazyTextWidget(load: () => Promise<{ default: Widget }>): Widget {
  let loaded: Widget | undefined;
  let loading: Promise<Widget> | undefined;
  const loadOnce = () => (loading ??= load().then((module) => (loaded = module.default)));

  return function LazyTextWidget(props: WidgetProps) {
    const [Loaded, setLoaded] = useState<Widget | undefined>(() => loaded);
    const [takeFocus, setTakeFocus] = useState(false);

    useEffect(() => {
      if (Loaded) return;
      let live = true;
      loadOnce().then(
        (widget) => {
          if (!live) return;
          setTakeFocus(document.activeElement?.id === props.name);
          setLoaded(() => widget);
        },
        () => {
          loading = undefined; // tried again at the next render
        },
      );
      return () => {
        live = false;
      };
    }, [Loaded, props.name]);

    useEffect(() => {
      if (!takeFocus) return;
      const input = document.getElementById(props.name) as HTMLInputElement | null;
      input?.focus();
      input?.setSelectionRange(input.value.length, input.value.length);
    }, [takeFocus, props.name]);

    return Loaded ? <Loaded {...props} /> : <TextWidget {...props} />;
  };
}
