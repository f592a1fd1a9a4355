import { useLocation, useNavigate } from '../../lib/routing.tsx';
import form from '../../../../schemas/auth/signup.json';
import { anonymousAnswers, prefillToken } from '../../session/carried-answers.ts';
import { readNavigationState } from '../../session/navigation-state.ts';
import { accountApi } from './api/account-api.ts';
import { AccountCard } from './AccountCard.tsx';

export function SignupPage() {
  const navigate = useNavigate();
  const state = readNavigationState(useLocation().state);

  return (
    <AccountCard
      name="signup"
      form={form}
      initialValues={{ username: state.username ?? '' }}
      onSubmit={async ({ username = '', password = '' }) => {
        const answers = state.answers ?? anonymousAnswers();
        const reply = await accountApi.signup({ username: username.trim(), password, answers: answers as Record<string, string>, prefill_token: prefillToken() });
        navigate('/confirm', { state: { username: username.trim(), answers: state.answers, successMessage: reply.message, mail: reply.mail } });
      }}
    />
  );
}
