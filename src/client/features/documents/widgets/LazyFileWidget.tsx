import { Callout } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState, type ComponentType } from 'react';
import { documentRules } from '../../../../shared/documents/file-rules.ts';
import type { FormContext } from '../../../form-theme/form-context.ts';

type Widget = ComponentType<WidgetProps>;

let loaded: Widget | undefined;
let loading: Promise<Widget> | undefined;

function load(): Promise<Widget> {
  loading ??= import('./FileWidget.tsx').then((module) => {
    loaded = module.default as Widget;
    return loaded;
  });
  return loading;
}

/**
 * A document question. Anonymous visitors only read that it needs an account, so the
 * uploader (with its checks, conversion polling and delete dialog) is loaded for a
 * logged-in applicant only: a first visit does not carry it.
 */
export default function LazyFileWidget(props: WidgetProps) {
  const context = props.registry.formContext as FormContext;
  const [Uploader, setUploader] = useState<Widget | undefined>(() => loaded);

  useEffect(() => {
    if (!context.loggedIn || Uploader) return;
    let live = true;
    load().then(
      (widget) => live && setUploader(() => widget),
      () => {
        loading = undefined; // tried again at the next render
      },
    );
    return () => {
      live = false;
    };
  }, [context.loggedIn, Uploader]);

  if (!context.loggedIn) {
    return <Callout icon="lock" className="file-logged-out" id={props.name}>{documentRules.messages.logged_out}</Callout>;
  }
  return Uploader ? <Uploader {...props} /> : <div className="file-question" data-document-phase="loading" />;
}
