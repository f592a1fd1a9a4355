import { Callout } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import messages from '../../../../schemas/auth/messages.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import type { EndpointReply } from '../../lib/api-client.ts';
import { accountApi } from './api/account-api.ts';

type MailStatus = EndpointReply<'mailStatus'>['status'];

/** How often the page asks whether its mail went out, while it has not. */
const POLL_MS = 2000;

/**
 * Says so when the e-mail the last call queued (a code, a reset link) has not gone out
 * after a failed try, and when it was given up; says nothing while all is well. Asks the
 * server until the mail is sent or given up.
 */
export function MailDelayNotice({ ticket, username }: { ticket: string; username: string }) {
  const [status, setStatus] = useState<MailStatus>('pending');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const ask = async () => {
      try {
        const reply = await accountApi.mailStatus({ mail: ticket });
        if (stopped) return;
        setStatus(reply.status);
        if (reply.status === 'sent' || reply.status === 'failed') return;
      } catch {
        // not known (a day old) or the server is away: the page says nothing more
        return;
      }
      timer = setTimeout(() => void ask(), POLL_MS);
    };
    void ask();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ticket]);

  const notice = status === 'delayed' ? messages.mail_delayed : status === 'failed' ? messages.mail_failed : undefined;
  return (
    <div role="status" className="mail-delay-notice">
      {notice && <Callout intent={status === 'failed' ? 'danger' : 'warning'} icon="time">{fillTemplate(notice, { username })}</Callout>}
    </div>
  );
}
