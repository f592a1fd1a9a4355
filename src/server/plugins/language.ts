import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isLanguage, LANGUAGE_COOKIE, LANGUAGE_PARAM, negotiateLanguage, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { isHttps } from '../config.ts';
import { translateMessage } from '../i18n/language-texts.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** the applicant's language: their choice (the cookie), else the browser's Accept-Language */
    language: Language;
  }
}

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * The language of a request: the visitor's choice kept in the cookie, else what the
 * browser asks for. Staff's service view (a service token) is English unless the request
 * names the applicant's language (the PDF copy's printing does).
 */
export function languageOf(request: FastifyRequest): Language {
  const query = new URLSearchParams(request.url.split('?', 2)[1] ?? '');
  if (query.has('service_token')) {
    const named = query.get(LANGUAGE_PARAM);
    return isLanguage(named) ? named : SOURCE_LANGUAGE;
  }
  const chosen = request.cookies[LANGUAGE_COOKIE];
  return isLanguage(chosen) ? chosen : negotiateLanguage(request.headers['accept-language']);
}

/** Keeps the visitor's choice in this browser; readable by the page, which reloads when it changes. */
export function setLanguageCookie(app: FastifyInstance, reply: FastifyReply, language: Language): void {
  reply.setCookie(LANGUAGE_COOKIE, language, { path: '/', sameSite: 'lax', secure: isHttps(app.config), httpOnly: false, maxAge: YEAR_SECONDS });
}

type Translatable = { message?: unknown; errors?: unknown };

/**
 * Every reply's `message` and field `errors` in the applicant's language. The services
 * write English (the schema files); the catalogue finds each message by its English
 * template and fills the translation with the same values.
 */
export default fp(async function language(app: FastifyInstance) {
  app.decorateRequest('language', SOURCE_LANGUAGE);
  app.addHook('onRequest', async (request) => {
    request.language = languageOf(request);
  });
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    if (request.language === SOURCE_LANGUAGE || !payload || typeof payload !== 'object') return payload;
    const { message, errors } = payload as Translatable;
    if (typeof message !== 'string' && (!errors || typeof errors !== 'object')) return payload;
    const translated: Translatable = { ...(payload as object) };
    if (typeof message === 'string') translated.message = translateMessage(request.language, message);
    if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
      translated.errors = Object.fromEntries(Object.entries(errors).map(([key, list]) => [
        key, Array.isArray(list) ? list.map((item) => (typeof item === 'string' ? translateMessage(request.language, item) : item)) : list,
      ]));
    }
    return translated;
  });
}, { name: 'language' });
