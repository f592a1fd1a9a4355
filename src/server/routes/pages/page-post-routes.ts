import type { FastifyInstance } from 'fastify';
import messages from '../../../../schemas/auth/messages.json';
import apiMessages from '../../../../schemas/text/api-messages.json';
import { form } from '../../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { postedChanges } from '../../answers/posted-answers.ts';
import { HttpError } from '../../lib/http-error.ts';
import { POSTED_PARAM, POSTED_TOO_LATE } from '../../plugins/page-drawing.ts';
import { isSameOrigin } from '../../plugins/security.ts';

/**
 * POST /about, /education-ug, /final-steps: the server's drawing of a form page saves
 * without scripts (a <form method="post">, its button in a noscript). The answers go
 * through the same save as the API's (the service, stamped with the server's time, so a
 * newer change from a tab still wins), and the answer is 303 back to the page, which then
 * says the answers were saved and what needs attention (plugins/page-drawing.ts). Not part
 * of the API contract: a browser's form post, not a JSON call, and hidden from its route list.
 */
export default async function pagePostRoutes(app: FastifyInstance) {
  const publicOrigin = new URL(app.config.publicUrl).origin;
  // a form post's body, here only: the API keeps refusing anything but JSON
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, new URLSearchParams(body as string)));

  // the cookie is SameSite=Lax, so another site's post carries none; the origin is checked all the same
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!isSameOrigin(request, publicOrigin)) throw new HttpError(403, messages.cross_site, { code: 'CROSS_SITE' });
  });

  // kept out of the contract's route table, as the built client's files are (plugins/contract.ts)
  const hidden = { schema: { hide: true } as Record<string, unknown> };
  for (const page of form.pageOrder) {
    const back = `/${page}?${POSTED_PARAM}`;
    app.post(`/${page}`, hidden, async (request, reply) => {
      if (!(request.body instanceof URLSearchParams)) {
        throw new HttpError(400, fillTemplate(apiMessages.invalid_request, { where: 'body' }), { code: 'INVALID_REQUEST' });
      }
      try {
        await app.requireApplicant(request, reply);
      } catch {
        // no session: the page says answers are saved to an account
        return reply.redirect(back, 303);
      }
      const applicant = request.applicant!;
      const stored = (await app.profiles.profile(applicant)).answer;
      const changes = postedChanges(page, request.body, stored);
      try {
        if (Object.keys(changes).length) await app.lifecycle.saveAnswers(applicant.id, changes);
      } catch (error) {
        // submitted meanwhile (in another tab): the page says so in words, not the API's JSON
        if (error instanceof HttpError && error.details.code === 'SUBMITTED') return reply.redirect(`/${page}?${POSTED_PARAM}=${POSTED_TOO_LATE}`, 303);
        throw error;
      }
      return reply.redirect(back, 303);
    });
  }
}
