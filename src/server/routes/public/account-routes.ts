import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import { isHttps } from '../../config.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { perAddressLimit } from '../../lib/too-many-requests.ts';
import { isLanguage } from '../../../shared/i18n/languages.ts';
import { setLanguageCookie } from '../../plugins/language.ts';

/** How long the browser that signed up is known as such: codes may be asked for again for days. */
const SIGNUP_BROWSER_SECONDS = 7 * 24 * 3600;

/** The account calls of spec section 7: sign-up, confirmation, login, forgotten password. */
export default async function accountRoutes(app: FastifyInstance) {
  // per client address, on top of the per-account limits in the database
  await app.register(rateLimit, perAddressLimit(app.config.authRateLimitPerIp, (ip, url) => `${clientNetwork(ip, app.config.networkPrefixV4)}|${url}`));

  const { accounts } = app;

  // the browser that signed up keeps a proof of it (account-service confirm): set on every
  // path alike, so the cookie tells nothing about the address either
  const signupCookie = isHttps(app.config) ? '__Host-signup' : 'signup';
  const signupCookieOptions = { path: '/', sameSite: 'strict' as const, secure: isHttps(app.config), httpOnly: true };

  app.endpoint('signup', async (request, reply) => {
    const { browserProof, ...delivery } = await accounts.signup(request.body, request.ip, request.language);
    reply.setCookie(signupCookie, browserProof, { ...signupCookieOptions, maxAge: SIGNUP_BROWSER_SECONDS });
    return delivery;
  });
  app.endpoint('resendConfirmation', (request) => accounts.resendConfirmation(request.body, request.ip));
  app.endpoint('confirm', async (request, reply) => {
    const result = await accounts.confirm(request.body, request.cookies[signupCookie]);
    reply.clearCookie(signupCookie, signupCookieOptions);
    return result;
  });
  app.endpoint('forgotPassword', (request) => accounts.forgotPassword(request.body, request.ip));
  app.endpoint('mailStatus', (request) => accounts.mailStatus(request.body));

  app.endpoint('resetPassword', async (request, reply) => {
    const result = await accounts.resetPassword(request.body, request.ip);
    app.sessions.clearCookies(reply); // every session of the account has ended, this one too
    return result;
  });

  app.endpoint('login', async (request, reply) => {
    const applicant = await accounts.login(request.body, request.ip);
    await app.sessions.start(reply, applicant.id);
    // the account's language follows the applicant to this browser (the page reloads in it)
    if (isLanguage(applicant.language)) {
      setLanguageCookie(app, reply, applicant.language);
      request.language = applicant.language;
    }
    await accounts.recordLogin(applicant.id);
    return { message: messages.login_success };
  });
}
