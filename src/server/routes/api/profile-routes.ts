import type { FastifyInstance } from 'fastify';
import { listLogins } from '../../db/repositories/login-repository.ts';
import { answersOf, lastPageOf, webStatusEntriesOf } from '../../db/repositories/profile-repository.ts';

/** GET /api/profile: the profile response of spec section 3. */
export default async function profileRoutes(app: FastifyInstance) {
  app.get('/api/profile', { onRequest: app.requireApplicant }, async (request) => {
    const applicant = request.applicant!;
    const [answer, webStatus, lastPage, logins, documentAnswer] = await Promise.all([
      answersOf(app.db, applicant.id),
      webStatusEntriesOf(app.db, applicant.id),
      lastPageOf(app.db, applicant.id),
      listLogins(app.db, applicant.id),
      app.documents.list(applicant.id),
    ]);
    return {
      answer,
      document_answer: documentAnswer,
      web_status: webStatus.map((entry) => ({ web_status: entry.web_status, created_at: entry.created_at.toISOString() })),
      last_page: lastPage,
      username: applicant.email,
      successful_login: logins.map((login) => ({ login_at: login.login_at.toISOString() })),
      inactivity_timeout_ms: app.config.inactivityTimeoutMs,
    };
  });
}
