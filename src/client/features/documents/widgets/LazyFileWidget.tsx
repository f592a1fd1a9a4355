import { Callout } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, type ComponentType } from 'react';
import { documentRules } from '../../../../shared/documents/file-rules.ts';
import type { FormContext } from '../../../form-theme/form-context.ts';
import { onDemand, useOnDemand } from '../../../lib/on-demand.ts';

type Widget = ComponentType<WidgetProps>;

// drawn as loading by the server, and so taken over, whatever another section has loaded (on-demand.ts)
const uploader = onDemand(async () => (await import('./FileWidget.tsx')).default as Widget);

/**
 * A document question. Anonymous visitors only read that it needs an account, so the
 * uploader (with its checks, conversion polling and delete dialog) is loaded for a
 * logged-in applicant only: a first visit does not carry it.
 */
export default function LazyFileWidget(props: WidgetProps) {
  const context = props.registry.formContext as FormContext;
  const Uploader = useOnDemand(uploader);

  useEffect(() => {
    if (context.loggedIn && !Uploader) uploader.load().catch(() => {}); // tried again at the next show
  }, [context.loggedIn, Uploader]);

  if (!context.loggedIn) {
    return <Callout icon="lock" className="file-logged-out" id={props.name}>{documentRules.messages.logged_out}</Callout>;
  }
  return Uploader ? <Uploader {...props} /> : <div className="file-question" data-document-phase="loading" />;
}
