import type { FastifyInstance } from 'fastify';
import { answersOf } from '../../db/repositories/profile-repository.ts';

/** GET /api/application-file: the applicant's checklist after submission. */
export default async function applicationFileRoutes(app: FastifyInstance) {
  app.endpoint('applicationFile', async (request) => {
    const applicantId = request.applicant!.id;
    const [file, answers] = await Promise.all([app.fileItems.view(applicantId), answersOf(app.db, applicantId)]);
    const counselor = answers.counselor_email_address;
    return { ...file, counselor_email: typeof counselor === 'string' && counselor ? counselor : null };
  });
}
