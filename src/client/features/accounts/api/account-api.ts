import { callEndpoint, type EndpointInput } from '../../../lib/api-client.ts';
import { markSignedIn } from '../../../session/signed-in.ts';

/** The account calls of spec section 7, typed from the contract (schemas/api/accounts.json). */
type Body<N extends 'signup' | 'confirm' | 'resendConfirmation' | 'login' | 'forgotPassword' | 'resetPassword' | 'mailStatus'> = EndpointInput<N>['body'];

export const accountApi = {
  signup: (body: Body<'signup'>) => callEndpoint('signup', { body }),
  confirm: (body: Body<'confirm'>) => callEndpoint('confirm', { body }),
  resend: (body: Body<'resendConfirmation'>) => callEndpoint('resendConfirmation', { body }),
  // only a login starts what runs while signed in (the inactivity guard)
  login: async (body: Body<'login'>) => {
    const reply = await callEndpoint('login', { body });
    markSignedIn();
    return reply;
  },
  forgot: (body: Body<'forgotPassword'>) => callEndpoint('forgotPassword', { body }),
  reset: (body: Body<'resetPassword'>) => callEndpoint('resetPassword', { body }),
  mailStatus: (body: Body<'mailStatus'>) => callEndpoint('mailStatus', { body }),
};
