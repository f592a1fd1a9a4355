import { useLocation, useNavigate } from '../../lib/routing.tsx';
import form from '../../../../schemas/auth/login.json';
import partner from '../../../../schemas/partner.json';
import { ServerError } from '../../lib/api-errors.ts';
import { pageInOtherLanguage } from '../../i18n/chosen-language.ts';
import { anonymousAnswers, keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { keepMessageAcrossReload } from '../../session/message-across-reload.ts';
import { readNavigationState } from '../../session/navigation-state.ts';
import { accountApi } from './api/account-api.ts';
import { AccountCard } from './AccountCard.tsx';
import { ResendCodeButton } from './ResendCodeButton.tsx';
import { Link } from '../../lib/routing.tsx';

export function LoginPage() {
  const navigate = useNavigate();
  const state = readNavigationState(useLocation().state);

  return (
    <AccountCard
      name="login"
      form={form}
      initialValues={{ username: state.username ?? '' }}
      onSubmit={async ({ username = '', password = '' }) => {
        try {
          const reply = await accountApi.login({ username: username.trim(), password });
          // the account's language differs from this page's: its first page loads in that language's
          // build; answers carried from before signing in wait in this tab for it, as across a reload
          if (pageInOtherLanguage()) {
            keepAnonymousAnswers({ ...anonymousAnswers(), ...state.answers });
            keepMessageAcrossReload('login_success');
            window.location.assign(partner.default_route);
            return;
          }
          navigate(partner.default_route, { state: { successMessage: reply.message, answers: state.answers } });
        } catch (error) {
          if (error instanceof ServerError && error.code === 'USER_NOT_CONFIRMED') {
            navigate('/confirm', { state: { username: username.trim(), answers: state.answers, errorMessage: error.message } });
            return;
          }
          throw error;
        }
      }}
    >
      {(values) => (
        <div className="account-actions">
          <Link to="/forgot" state={{ username: values.username }}>{form.forgot_link}</Link>
          <ResendCodeButton username={values.username ?? ''} label={form.resend} />
        </div>
      )}
    </AccountCard>
  );
}
