import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import frame from '../../../../schemas/text/frame.json';
import type { PageId } from '../../../shared/form/form-model.ts';
import { useApplicationNavigation } from './use-application-navigation.ts';

/** The buttons under a page: continue to the next step, or submit on the last. */
export function PageActions({ page }: { page: PageId }) {
  const navigation = useApplicationNavigation();
  const [busy, setBusy] = useState(false);
  const index = frame.steps.findIndex((step) => step.path === `/${page}`);
  const next = frame.steps[index + 1];
  const run = (action: () => Promise<void>) => async () => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="page-actions">
      {next ? (
        <Button intent="primary" size="large" endIcon="chevron-right" text={frame.actions.continue} loading={busy}
          onClick={run(() => navigation.continueTo(next.path))} />
      ) : (
        <Button intent="primary" size="large" icon="tick" text={frame.actions.submit} loading={busy}
          onClick={run(() => navigation.submit())} />
      )}
    </div>
  );
}
