import type { FastifyInstance } from 'fastify';
import { createProfileService } from '../../answers/profile-service.ts';

/** GET /api/profile: the profile response of spec section 3. */
export default async function profileRoutes(app: FastifyInstance) {
  const profile = createProfileService(app.db);
  app.endpoint('profile', async (request) => {
    const applicant = request.applicant!;
    const [answer, webStatus, lastPage, logins, documentAnswer] = await Promise.all([
      profile.answers(applicant.id),
      profile.webStatusEntries(applicant.id),
      profile.lastPage(applicant.id),
      profile.logins(applicant.id),
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
  }, { onRequest: app.requireApplicant });
}
