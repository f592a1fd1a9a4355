import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import apiMessages from '../../../schemas/text/api-messages.json';
import { HttpError } from '../lib/http-error.ts';
import { randomToken } from '../lib/secrets.ts';
import { createReminders, type Reminders } from '../reminders/reminder-service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** deadline reminders: selected every few minutes, sent as jobs, stopped by their links or the account menu */
    reminders: Reminders;
  }
  interface FastifyRequest {
    /** the reminder a valid unsubscribe token names (endpoints with "unsubscribe-token" access) */
    unsubscribeReminderId: string | null;
  }
}

export default fp(async function reminders(app: FastifyInstance) {
  const secret = await app.secrets.get('unsubscribe-key', () => randomToken());
  const service = createReminders({ db: app.db, jobs: app.jobs, mailer: app.mailer, log: app.log, publicUrl: () => app.config.publicUrl, secret });
  app.decorate('reminders', service);
  app.decorateRequest('unsubscribeReminderId', null);
  // the token is the authority, not a cookie: a forged or altered one is refused before the route reads anything
  app.guardAccess('unsubscribe-token', async (request) => {
    const id = service.reminderOf((request.query as { token?: unknown } | undefined)?.token);
    if (!id) throw new HttpError(404, apiMessages.unsubscribe_invalid, { code: 'UNSUBSCRIBE_INVALID' });
    request.unsubscribeReminderId = id;
  });
}, { name: 'reminders', dependencies: ['database', 'mail', 'jobs'] });
