import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import { useNavigate } from '../../lib/routing.tsx';
import errorsText from '../../../../schemas/text/errors.json';
import { validateAuthForm } from '../../../shared/auth/auth-forms.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { accountApi } from './api/account-api.ts';

/** 'Resend confirmation code?': needs a valid e-mail in the form, then goes to /confirm. */
export function ResendCodeButton({ username, label }: { username: string; label: string }) {
  const navigate = useNavigate();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  const resend = async () => {
    const title = errorsText.toast.resend_error;
    const invalid = validateAuthForm('resend', { username: username.trim() }).username?.[0];
    if (invalid) {
      toast({ severity: 'error', title, message: invalid, key: 'resend' });
      return;
    }
    setBusy(true);
    try {
      const reply = await accountApi.resend({ username: username.trim() });
      navigate('/confirm', { state: { username: username.trim(), successMessage: reply.message, mail: reply.mail } });
    } catch (error) {
      toast({ severity: 'error', title, message: messageOf(error), key: 'resend' });
    } finally {
      setBusy(false);
    }
  };

  return <Button variant="minimal" intent="primary" text={label} onClick={resend} loading={busy} className="resend-button" />;
}
