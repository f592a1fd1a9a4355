import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CODE_WINDOW, confirmationCodeKey, createAccountService, type AccountService, type CodeWindow } from '../accounts/account-service.ts';
import { createPrefillService, type PrefillService } from '../accounts/prefill-service.ts';
import { restartCodeWindow } from '../db/repositories/account-code-repository.ts';
import { clientNetwork } from '../lib/client-network.ts';

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
    mailQueue: app.mailQueue,
    log: app.log,
    publicUrl: () => app.config.publicUrl,
    codeKey: await confirmationCodeKey(app.secrets),
    networkOf: (address) => clientNetwork(address, app.config.networkPrefixV4),
    mailPerNetworkPerHour: app.config.mailPerNetworkPerHour,
  }));
  app.mailQueue.onSent(CODE_WINDOW, async (args) => {
    const { applicantId, purpose, secretHash, ttlMs } = args as CodeWindow;
    await restartCodeWindow(app.db, applicantId, purpose, secretHash, ttlMs);
  });
  app.decorate('prefill', createPrefillService(app.db));
}, { name: 'accounts', dependencies: ['database', 'mail-queue'] });
