import type { FastifyInstance } from 'fastify';
import apiMessages from '../../../../schemas/text/api-messages.json';
import { HttpError } from '../../lib/http-error.ts';

/** The most a one-click body needs ("List-Unsubscribe=One-Click", or the same as one multipart field). */
const BODY_LIMIT = 2048;

/** The fields of a multipart/form-data body of plain text fields (RFC 7578), by name. */
function multipartFields(body: string, contentType: string): Record<string, string> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return {};
  const fields: Record<string, string> = {};
  for (const part of body.split(`--${boundary}`)) {
    const [head, ...rest] = part.split('\r\n\r\n');
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(head ?? '')?.[1];
    if (name !== undefined && rest.length) fields[name] = rest.join('\r\n\r\n').replace(/\r\n$/, '');
  }
  return fields;
}

/**
 * POST /public/unsubscribe?token=: a reminder's one-click unsubscribe (RFC 8058). A mail
 * provider posts `List-Unsubscribe=One-Click` as a form, from its own servers, with no
 * cookie; the unsubscribe page posts it as JSON. Both bodies are read here only: the rest of
 * the API takes JSON alone.
 */
export default async function unsubscribeRoutes(app: FastifyInstance) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))));
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (request, body, done) => done(null, multipartFields(body as string, request.headers['content-type'] ?? '')));

  app.endpoint('unsubscribe', async (request) => {
    const outcome = await app.reminders.unsubscribe(request.unsubscribeReminderId!);
    if (outcome === 'unknown') throw new HttpError(404, apiMessages.unsubscribe_invalid, { code: 'UNSUBSCRIBE_INVALID' });
    if (outcome === 'spent') throw new HttpError(410, apiMessages.unsubscribe_spent, { code: 'UNSUBSCRIBE_SPENT' });
    return { message: apiMessages.reminders_stopped };
  });
}
