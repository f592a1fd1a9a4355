import { useNavigate, useSearchParams } from 'react-router-dom';
import form from '../../../../schemas/auth/reset.json';
import { partnerText } from '../../lib/partner-text.ts';
import { accountApi } from './api/account-api.ts';
import { AccountCard } from './AccountCard.tsx';

/** /reset?username=...&id=...: the link from the reset e-mail. */
export function ResetPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const username = params.get('username') ?? '';
  const id = params.get('id') ?? '';

  return (
    <AccountCard
      name="reset"
      form={form}
      hiddenValues={{ username, id }}
      intro={username ? <p className="account-intro">{partnerText(form.intro, { username })}</p> : undefined}
      onSubmit={async ({ password = '', confirm_password = '' }) => {
        const reply = await accountApi.reset({ username, password, confirm_password, id });
        navigate('/login', { replace: true, state: { username, successMessage: reply.message } });
      }}
    />
  );
}
