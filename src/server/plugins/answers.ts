import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createFormExtrasService, type FormExtrasService } from '../answers/form-extras-service.ts';
import { createLifecycleService, type LifecycleService } from '../answers/lifecycle-service.ts';
import { createProfileService, type ProfileService } from '../answers/profile-service.ts';
import { saveQueueKeys } from '../answers/save-queue-key.ts';
import { randomToken } from '../lib/secrets.ts';
import { createSubmissionMail } from '../mail/submission-mail.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** the profile response and the service view */
    profiles: ProfileService;
    /** answers, status, last page, validations and submit */
    lifecycle: LifecycleService;
    /** add-another counts and tab choices */
    formExtras: FormExtrasService;
  }
}

/** The application's answers and what goes with them (spec sections 3 and 7). */
export default fp(async function answers(app: FastifyInstance) {
  const formExtras = createFormExtrasService(app.db);
  app.decorate('formExtras', formExtras);
  const submissionMail = createSubmissionMail({ db: app.db, mailQueue: app.mailQueue, publicUrl: () => app.config.publicUrl, log: app.log });
  app.decorate('lifecycle', createLifecycleService(app.db, {
    onSubmitted: (applicantId) => {
      app.webhooks.applicationSubmitted(applicantId);
      submissionMail.applicationSubmitted(applicantId);
      // items that arrived before the form (a transcript by post) may complete the file now
      app.fileItems.recheck(applicantId).catch((error) => app.log.error({ err: error, applicant: applicantId }, 'the application file was not checked after submit'));
    },
  }));
  const saveQueueKey = saveQueueKeys(await app.secrets.get('save-queue-key', () => randomToken()));
  app.decorate('profiles', createProfileService({
    db: app.db, documents: app.documents, extras: formExtras, inactivityTimeoutMs: app.config.inactivityTimeoutMs, saveQueueKey,
  }));
}, { name: 'answers', dependencies: ['database', 'documents', 'webhooks', 'mail-queue', 'file-items'] });
