import { Button, Callout, Card } from '@blueprintjs/core';
import { useState } from 'react';
import frame from '../../../../schemas/text/frame.json';
import { messageOf } from '../../lib/api-errors.ts';
import { useScreenTitle } from '../../lib/document-title.ts';
import { Link, useLocation } from '../../lib/routing.tsx';
import { unsubscribe } from './api/reminder-api.ts';

const text = frame.reminders;

/**
 * /unsubscribe?token=: the plain link of every reminder. Opening it changes nothing (a mail
 * scanner may open links); the button posts the same one-click unsubscribe a mail provider does.
 */
export function UnsubscribePage() {
  useScreenTitle(text.unsubscribe_title);
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string }>();
  const [busy, setBusy] = useState(false);
  const stop = async () => {
    setBusy(true);
    try {
      setOutcome({ ok: true, message: (await unsubscribe(token)).message });
    } catch (error) {
      setOutcome({ ok: false, message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="account-card" elevation={1}>
      <h1 className="page-title" tabIndex={-1}>{text.unsubscribe_title}</h1>
      {outcome ? (
        <Callout intent={outcome.ok ? 'success' : 'danger'} className="account-callout" role={outcome.ok ? 'status' : 'alert'}>{outcome.message}</Callout>
      ) : (
        <>
          <p className="account-intro">{text.unsubscribe_intro}</p>
          <Button intent="primary" text={text.unsubscribe_button} loading={busy} onClick={() => void stop()} />
        </>
      )}
      <p className="account-links"><Link to="/login">{text.unsubscribe_login}</Link></p>
    </Card>
  );
}
