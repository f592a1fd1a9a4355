import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { confirmationCodeKey, createAccountService, type AccountService } from '../accounts/account-service.ts';
import { createPrefillService, type PrefillService } from '../accounts/prefill-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** sign-up, confirmation, login, forgotten password */
    accounts: AccountService;
    /** answers staff prefilled for a prospect, by link */
    prefill: PrefillService;
  }
}

export default fp(async function accounts(app: FastifyInstance) {
  app.decorate('accounts', createAccountService({
    db: app.db,
    mailer: app.mailer,
    log: app.log,
    publicUrl: () => app.config.publicUrl,
    codeKey: await confirmationCodeKey(app.db),
  }));
  app.decorate('prefill', createPrefillService(app.db));
}, { name: 'accounts', dependencies: ['database', 'mail'] });
