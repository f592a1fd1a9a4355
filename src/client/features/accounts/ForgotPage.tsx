import { useState } from 'react';
import { useLocation } from '../../lib/routing.tsx';
import form from '../../../../schemas/auth/forgot.json';
import { useToast } from '../../lib/toasts.tsx';
import { readNavigationState } from '../../session/navigation-state.ts';
import { accountApi } from './api/account-api.ts';
import { AccountCard } from './AccountCard.tsx';
import { MailDelayNotice } from './MailDelayNotice.tsx';

export function ForgotPage() {
  const toast = useToast();
  const state = readNavigationState(useLocation().state);
  const [sent, setSent] = useState<{ ticket: string; username: string }>();
  return (
    <AccountCard
      name="forgot"
      form={form}
      initialValues={{ username: state.username ?? '' }}
      onSubmit={async ({ username = '' }) => {
        const reply = await accountApi.forgot({ username: username.trim() });
        toast({ severity: 'success', message: reply.message, key: 'forgot' });
        setSent({ ticket: reply.mail, username: username.trim() });
      }}
    >
      {() => sent && <MailDelayNotice key={sent.ticket} ticket={sent.ticket} username={sent.username} />}
    </AccountCard>
  );
}
