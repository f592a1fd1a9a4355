import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import { perAddressLimit } from '../../lib/too-many-requests.ts';

/** The account calls of spec section 7: sign-up, confirmation, login, forgotten password. */
export default async function accountRoutes(app: FastifyInstance) {
  // per client address, on top of the per-account limits in the database
  await app.register(rateLimit, perAddressLimit(app.config.authRateLimitPerIp, (ip, url) => `${ip}|${url}`));

  const { accounts } = app;

  app.endpoint('signup', (request) => accounts.signup(request.body));
  app.endpoint('resendConfirmation', (request) => accounts.resendConfirmation(request.body));
  app.endpoint('confirm', (request) => accounts.confirm(request.body));
  app.endpoint('forgotPassword', (request) => accounts.forgotPassword(request.body));
  app.endpoint('mailStatus', (request) => accounts.mailStatus(request.body));

  app.endpoint('resetPassword', async (request, reply) => {
    const result = await accounts.resetPassword(request.body);
    app.sessions.clearCookies(reply); // every session of the account has ended, this one too
    return result;
  });

  app.endpoint('login', async (request, reply) => {
    const applicant = await accounts.login(request.body);
    await app.sessions.start(reply, applicant.id);
    await accounts.recordLogin(applicant.id);
    return { message: messages.login_success };
  });
}
