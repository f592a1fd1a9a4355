import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import { confirmationCodeKey, createAccountService } from '../../accounts/account-service.ts';
import { HttpError } from '../../lib/http-error.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';

/** The account calls of spec section 7: sign-up, confirmation, login, forgotten password. */
export default async function accountRoutes(app: FastifyInstance) {
  // per client address, on top of the per-account limits in the database
  await app.register(rateLimit, {
    max: app.config.authRateLimitPerIp,
    timeWindow: 60_000,
    keyGenerator: (request) => `${request.ip}|${request.routeOptions.url}`,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, fillTemplate(messages.rate_limited, { minutes: Math.max(1, Math.ceil(context.ttl / 60_000)) }), {
        code: 'RATE_LIMITED', retryAfterSeconds: Math.ceil(context.ttl / 1000),
      }),
  });

  const accounts = createAccountService({
    db: app.db,
    mailer: app.mailer,
    log: app.log,
    publicUrl: () => app.config.publicUrl,
    codeKey: await confirmationCodeKey(app.db),
  });

  app.endpoint('signup', (request) => accounts.signup(request.body));
  app.endpoint('resendConfirmation', (request) => accounts.resendConfirmation(request.body));
  app.endpoint('confirm', (request) => accounts.confirm(request.body));
  app.endpoint('forgotPassword', (request) => accounts.forgotPassword(request.body));

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
