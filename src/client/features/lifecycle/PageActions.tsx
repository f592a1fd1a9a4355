import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import frame from '../../../../schemas/text/frame.json';
import type { PageId } from '../../../shared/form/form-model.ts';
import { useClientSnapshot } from '../../session/client-snapshot.ts';
import { hasAnswers } from '../../session/carried-answers.ts';
import { useAnswersSelector } from '../../session/session-hooks.ts';
import { useApplicationNavigation } from './use-application-navigation.ts';

const SIGNUP_NOTE_ID = 'actions-signup-note';

/**
 * The buttons under a page: continue to the next step, or submit on the last. For an
 * anonymous visitor they lead to Sign Up (continue once something is answered, submit
 * always: see useApplicationNavigation), and their description says so.
 */
export function PageActions({ page }: { page: PageId }) {
  const navigation = useApplicationNavigation();
  const { is_logged_in: loggedIn } = useClientSnapshot();
  const answered = useAnswersSelector(null, (answers) => hasAnswers(answers));
  const [busy, setBusy] = useState(false);
  const index = frame.steps.findIndex((step) => step.path === `/${page}`);
  const next = frame.steps[index + 1];
  const leadsToSignup = !loggedIn && (!next || answered);
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
      {leadsToSignup && <span className="visually-hidden" id={SIGNUP_NOTE_ID}>{frame.actions.signup_note}</span>}
      {next ? (
        <Button intent="primary" size="large" endIcon="chevron-right" text={frame.actions.continue} loading={busy}
          aria-describedby={leadsToSignup ? SIGNUP_NOTE_ID : undefined} onClick={run(() => navigation.continueTo(next.path))} />
      ) : (
        <Button intent="primary" size="large" icon="tick" text={frame.actions.submit} loading={busy}
          aria-describedby={leadsToSignup ? SIGNUP_NOTE_ID : undefined} onClick={run(() => navigation.submit())} />
      )}
    </div>
  );
}
