import { useNavigate, useSearchParams } from '../../lib/routing.tsx';
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
      // a link cut short (no username or id) cannot reset anything: say so, never a bare {username}
      intro={<p className="account-intro">{username && id ? partnerText(form.intro, { username }) : form.intro_incomplete}</p>}
      onSubmit={async ({ password = '', confirm_password = '' }) => {
        const reply = await accountApi.reset({ username, password, confirm_password, id });
        navigate('/login', { replace: true, state: { username, successMessage: reply.message } });
      }}
    />
  );
}
