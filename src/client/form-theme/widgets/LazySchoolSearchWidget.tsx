import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState, type ComponentType } from 'react';
import TextWidget from './TextWidget.tsx';

type Widget = ComponentType<WidgetProps>;

let loaded: Widget | undefined;
let loading: Promise<Widget> | undefined;

function load(): Promise<Widget> {
  loading ??= import('./SchoolSearchWidget.tsx').then((module) => {
    loaded = module.default as Widget;
    return loaded;
  });
  return loading;
}

/**
 * The school search, loaded when a school block first shows (the education page only, and
 * only once the block's question is answered), so a first visit does not carry it. Until
 * it arrives the name is a plain text answer; the focus and caret move over to the search.
 */
export default function LazySchoolSearchWidget(props: WidgetProps) {
  const [Search, setSearch] = useState<Widget | undefined>(() => loaded);
  const [takeFocus, setTakeFocus] = useState(false);

  useEffect(() => {
    if (Search) return;
    let live = true;
    load().then(
      (widget) => {
        if (!live) return;
        setTakeFocus(document.activeElement?.id === props.name);
        setSearch(() => widget);
      },
      () => {
        // the search could not be loaded (server down): the name stays a plain text answer
        loading = undefined;
      },
    );
    return () => {
      live = false;
    };
  }, [Search, props.name]);

  useEffect(() => {
    if (!takeFocus) return;
    const input = document.getElementById(props.name) as HTMLInputElement | null;
    input?.focus();
    input?.setSelectionRange(input.value.length, input.value.length);
  }, [takeFocus, props.name]);

  return Search ? <Search {...props} /> : <TextWidget {...props} />;
}
