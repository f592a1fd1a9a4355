import type { FastifyInstance } from 'fastify';

/** GET /api/profile: the profile response of spec section 3. */
export default async function profileRoutes(app: FastifyInstance) {
  app.endpoint('profile', (request) => app.profiles.profile(request.applicant!));
}
