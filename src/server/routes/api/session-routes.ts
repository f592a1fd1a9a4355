import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';

/** Logout works with or without a live session: it always clears the cookies. */
export default async function sessionRoutes(app: FastifyInstance) {
  app.endpoint('logout', async (request, reply) => {
    await app.sessions.end(request, reply);
    return { message: messages.logout_success };
  });

  app.endpoint('keepAlive', async () => ({ message: messages.keep_alive }));
}
