import type { FastifyInstance } from 'fastify';

/**
 * GET /service/tmp-pdf?service_token=: what the read-only service view shows, for the one
 * applicant the token names (its guard, in plugins/service-links.ts, checked the token):
 * the answers, and the application file's items with their states (printed in the PDF copy).
 */
export default async function serviceRoutes(app: FastifyInstance) {
  app.endpoint('serviceView', async (request) => {
    const applicantId = request.staffLinkApplicantId!;
    const [view, file] = await Promise.all([app.profiles.serviceView(applicantId), app.fileItems.view(applicantId)]);
    return { ...view, application_file: file };
  });
}
