import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fresh from 'fresh';
import messages from '../../../schemas/auth/messages.json';
import partner from '../../../schemas/partner.json';
import frame from '../../../schemas/text/frame.json';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { pageTitle, routePageName } from '../../shared/text/page-title.ts';
import { fileIn } from '../i18n/language-texts.ts';
import type { ApiErrorReply } from '../../shared/generated/api-types.ts';
import { clientFiles } from '../../shared/i18n/client-files.ts';
import { isLanguage, LANGUAGE_PARAM, LANGUAGES, SOURCE_LANGUAGE, type Language } from '../../shared/i18n/languages.ts';
import { setApplicantLanguage } from '../db/repositories/applicant-repository.ts';
import { setLanguageCookie } from './language.ts';
import { readPagePreloads, type PagePreloads } from './page-preloads.ts';
import { sha256 } from '../lib/secrets.ts';
import { isApiPath } from './security.ts';

/**
 * The page's title before any script runs: a step's or the completion page's own, as the
 * browser's app names it (src/client/app/route-titles.ts), so a page read without scripts
 * is named too (WCAG 2.4.2); else the application's.
 */
function titleOf(path: string, texts: typeof frame): string {
  const page = routePageName(path, texts);
  return page ? pageTitle(page, partner.name, texts) : fillTemplate(texts.document_title, { partner: partner.name });
}

/** The page's own words before any script runs: its language, title and the note shown without JavaScript. */
function inLanguage(html: string, language: Language, path: string): string {
  const texts = fileIn(language, 'text/frame.json', frame);
  return html.replace(/<html lang="[^"]*">/, `<html lang="${language}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(titleOf(path, texts))}</title>`)
    .replace(/<noscript>[^<]*<\/noscript>/, `<noscript>${escapeHtml(texts.noscript)}</noscript>`);
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A language's build of the client: its page and the preloads of its chunks. A language
 * not built (a client built before it was added) gets the source language's.
 */
function readBuild(root: string, language: Language): { indexHtml: string; preloads: PagePreloads } {
  const own = clientFiles(language);
  const files = existsSync(join(root, own.html)) ? own : clientFiles(SOURCE_LANGUAGE);
  const htmlPath = join(root, files.html);
  return { indexHtml: existsSync(htmlPath) ? readFileSync(htmlPath, 'utf8') : '', preloads: readPagePreloads(root, files.manifest) };
}

/** The root element the browser's app renders into; the server draws a form page into it (plugins/page-drawing.ts). */
const EMPTY_ROOT = '<div id="root"></div>';
/** Tells the browser's app the page was drawn on the server (src/client/features/form/typed-before-start.ts). */
const DRAWN_ATTRIBUTE = 'data-drawn';

/** A path whose last segment ends in a file extension; page routes have none. */
const FILE_NAME = /\.[A-Za-z0-9]{1,8}$/;

/**
 * Serves the built client from the same origin as the API. Every page route answers
 * the page of the request's language's build (index.html for English, index.es.html for
 * Spanish), with the preloads of that route in its head; the client's router decides
 * what to show. Assets go out precompressed (the build writes .br and .gz beside them).
 */
export default fp(async function client(app: FastifyInstance) {
  const root = app.config.clientDir;
  const built = existsSync(join(root, clientFiles(SOURCE_LANGUAGE).html));
  const builds = new Map(LANGUAGES.map((language) => [language, readBuild(root, language)]));

  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: false,
      preCompressed: true,
      setHeaders(response, path) {
        // Vite puts a content hash in every asset name: safe to keep for a year
        if (path.includes('/assets/')) response.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    // split by hand: URL() throws on some hostile paths ('//[')
    const [path = '', query = ''] = request.url.split('?', 2);
    // a file that is not there (a favicon, a chunk an old page still names) is no page: the app's HTML would be read as it
    if (isApiPath(request.url) || request.method !== 'GET' || FILE_NAME.test(path)) {
      return reply.status(404).send({ message: messages.not_found, code: 'NOT_FOUND' } satisfies ApiErrorReply);
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The client is not built yet: run `npm run build`.');
    }
    const params = new URLSearchParams(query);
    const chosen = params.get(LANGUAGE_PARAM);
    // a language link of the header: the choice is kept (cookie, and the account when signed in),
    // then the same page again without the parameter
    if (isLanguage(chosen) && !params.has('service_token')) {
      setLanguageCookie(app, reply, chosen);
      if (request.cookies.logged_in === '1') await rememberInAccount(request, reply, chosen);
      params.delete(LANGUAGE_PARAM);
      const rest = params.toString();
      // one leading slash: "//host/x" would send the visitor to another site
      const samePage = `/${path.replace(/^[/\\]+/, '')}`;
      return reply.header('cache-control', 'no-store').redirect(`${samePage}${rest ? `?${rest}` : ''}`, 303);
    }
    // the readable twin of the session cookie (src/client/lib/session-cookie.ts); a service user reads no profile
    const signedIn = request.cookies.logged_in === '1' && !params.has('service_token');
    const { indexHtml, preloads } = builds.get(request.language)!;
    const tags = preloads.tagsFor(path, signedIn);
    let html = inLanguage(indexHtml, request.language, path);
    // a form page goes out drawn, usable before (and without) its scripts; else the plain page as before
    const drawn = html.includes(EMPTY_ROOT) ? await app.drawFormPage(request, path, query) : null;
    if (drawn !== null) html = html.replace(EMPTY_ROOT, `<div id="root" ${DRAWN_ATTRIBUTE}="">${drawn}</div>`);
    const page = tags ? html.replace('</head>', `${tags}</head>`) : html;
    // revalidated on every visit; one whose page has not changed (the same answers, the same
    // build and day) is answered 304, and the browser shows its copy without the page's bytes.
    // Kept by the browser only: a drawn page holds the applicant's answers
    const etag = `"${sha256(page)}"`;
    reply.header('cache-control', 'private, no-cache').header('vary', 'cookie, accept-language').header('etag', etag);
    if (fresh(request.headers, { etag })) return reply.code(304).send();
    return reply.type('text/html').send(page);
  });

  /** A signed-in applicant's choice goes with the account: their e-mails and PDF copy follow it. */
  async function rememberInAccount(request: FastifyRequest, reply: FastifyReply, language: Language): Promise<void> {
    try {
      await app.requireApplicant(request, reply);
    } catch {
      return; // an ended session: the cookie alone keeps the choice
    }
    await setApplicantLanguage(app.db, request.applicant!.id, language);
  }
}, { name: 'client', dependencies: ['security', 'sessions', 'language', 'page-drawing'] });
