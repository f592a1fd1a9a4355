import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import errors from '../../../schemas/text/errors.json';
import { isHttps } from '../config.ts';
import { deleteSession, findSession, insertSession, touchSession } from '../db/repositories/session-repository.ts';
import { HttpError } from '../lib/http-error.ts';
import { randomToken, sha256 } from '../lib/secrets.ts';

export interface SessionApplicant {
  id: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: {
      start(reply: FastifyReply, applicantId: string): Promise<void>;
      end(request: FastifyRequest, reply: FastifyReply): Promise<void>;
      clearCookies(reply: FastifyReply): void;
      /** Idle limit the server enforces: the client's inactivity timeout plus 2 minutes. */
      idleMs: number;
    };
    /** onRequest hook: answers 401 unless the request carries a live session. */
    requireApplicant(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    applicant: SessionApplicant | null;
  }
}

const ABSOLUTE_LIMIT_MS = 12 * 60 * 60_000; // ASVS 3.3.2
const TOUCH_EVERY_MS = 30_000; // fewer writes; far below the idle limit

/**
 * Server-side sessions: a 256-bit random id in an HttpOnly, SameSite=Lax cookie (Secure and
 * __Host- over https), stored hashed, renewed at every login, ended at logout and reset.
 * A readable `logged_in=1` cookie tells the client a session may exist; a 401 stays the truth.
 */
export default fp(async function sessions(app: FastifyInstance) {
  const https = isHttps(app.config);
  const cookieName = https ? '__Host-session' : 'session';
  const cookieBase = { path: '/', sameSite: 'lax' as const, secure: https };
  const idleMs = app.config.inactivityTimeoutMs + 2 * 60_000;

  app.decorateRequest('applicant', null);

  function clearCookies(reply: FastifyReply): void {
    reply.clearCookie(cookieName, { ...cookieBase, httpOnly: true });
    reply.clearCookie('logged_in', cookieBase);
  }

  app.decorate('sessions', {
    idleMs,
    clearCookies,
    async start(reply, applicantId) {
      const previous = reply.request.cookies[cookieName];
      if (previous) await deleteSession(app.db, sha256(previous));
      const id = randomToken();
      await insertSession(app.db, sha256(id), applicantId, new Date(Date.now() + ABSOLUTE_LIMIT_MS));
      const maxAge = ABSOLUTE_LIMIT_MS / 1000;
      reply.setCookie(cookieName, id, { ...cookieBase, httpOnly: true, maxAge });
      reply.setCookie('logged_in', '1', { ...cookieBase, httpOnly: false, maxAge });
    },
    async end(request, reply) {
      const id = request.cookies[cookieName];
      if (id) await deleteSession(app.db, sha256(id));
      clearCookies(reply);
    },
  });

  app.decorate('requireApplicant', async function requireApplicant(request: FastifyRequest, reply: FastifyReply) {
    const id = request.cookies[cookieName];
    const session = id ? await findSession(app.db, sha256(id)) : undefined;
    const now = Date.now();
    if (!id || !session || session.expires_at.getTime() <= now || session.last_seen_at.getTime() + idleMs <= now) {
      if (id && session) await deleteSession(app.db, sha256(id));
      clearCookies(reply);
      throw new HttpError(401, errors.session_invalid, { code: 'UNAUTHORIZED' });
    }
    if (now - session.last_seen_at.getTime() > TOUCH_EVERY_MS) await touchSession(app.db, sha256(id), new Date(now));
    request.applicant = { id: session.applicant_id, email: session.email };
  });
  // every contract endpoint with "applicant" access is behind it, by its registration (plugins/contract.ts)
  app.guardAccess('applicant', app.requireApplicant);
  // expired sessions are removed by the periodic sweep (src/server/jobs/sweep.ts), on one server
}, { name: 'sessions', dependencies: ['database'] });
