import { useLocation, useNavigate } from '../../lib/routing.tsx';
import form from '../../../../schemas/auth/confirm.json';
import { readNavigationState } from '../../session/navigation-state.ts';
import { accountApi } from './api/account-api.ts';
import { AccountCard } from './AccountCard.tsx';
import { MailDelayNotice } from './MailDelayNotice.tsx';
import { ResendCodeButton } from './ResendCodeButton.tsx';

export function ConfirmPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const state = readNavigationState(location.state);

  return (
    <AccountCard
      key={location.key}
      name="confirm"
      form={form}
      initialValues={{ username: state.username ?? '' }}
      onSubmit={async ({ username = '', code = '' }) => {
        const reply = await accountApi.confirm({ username: username.trim(), code });
        navigate('/login', { state: { username: username.trim(), answers: state.answers, successMessage: reply.message } });
      }}
    >
      {(values) => (
        <>
          {state.mail && <MailDelayNotice ticket={state.mail} username={state.username ?? ''} />}
          <div className="account-actions">
            <ResendCodeButton username={values.username ?? ''} label={form.resend} />
          </div>
        </>
      )}
    </AccountCard>
  );
}
