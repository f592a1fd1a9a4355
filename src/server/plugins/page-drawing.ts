import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { form } from '../../shared/form/form-model-data.ts';
import type { PageId } from '../../shared/form/form-model.ts';
import { API_ROUTES } from '../../shared/generated/api-types.ts';
import { LANGUAGES } from '../../shared/i18n/languages.ts';
import { validatePage } from '../../shared/validation/page-validation.ts';
import { errorsOnChosenTabs } from '../../shared/validation/tab-errors.ts';
import { withDrawnPageCache } from '../render/drawn-page-cache.ts';
import { createRenderPool, type RenderJob } from '../render/render-pool.ts';
import { fillSlots, type PageNotice } from '../render/page-slots.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * A form page's markup for the root element, drawn by the client's own code in a worker
     * (src/server/render/render-pool.ts) with the applicant's saved answers, in the request's
     * language; null where it is not drawn (not a form page, a staff view, a failure, too slow).
     */
    drawFormPage(request: FastifyRequest, path: string, query: string): Promise<string | null>;
  }
}

/** The query parameter of the page a post without scripts comes back to (routes/pages/page-post-routes.ts). */
export const POSTED_PARAM = 'saved';
/** Its value when the post came after the application was submitted, and so changed nothing. */
export const POSTED_TOO_LATE = 'submitted';

const FORM_PAGES = new Map(form.pageOrder.map((page) => [`/${page}`, page]));
const READS = ['profile', 'addAnother', 'tabs'] as const;

interface ProfileRead {
  answer: Record<string, string | boolean>;
}

export default fp(async function pageDrawing(app: FastifyInstance) {
  const { dir, workersPerLanguage, timeoutMs } = app.config.pageDrawing;
  const pool = workersPerLanguage > 0
    ? withDrawnPageCache(createRenderPool({ dir, languages: LANGUAGES, workersPerLanguage, timeoutMs, onError: (message) => app.log.warn(message) }))
    : null;
  app.addHook('onClose', async () => pool?.close());

  /**
   * The applicant's reads as the API answers them (the same serialization and language),
   * so the drawing matches what the browser's first render reads; null when the session
   * does not hold: the browser's own read then meets the 401 as it does today.
   */
  async function readsOf(request: FastifyRequest): Promise<RenderJob['data'] | null> {
    const headers = Object.fromEntries(Object.entries({ cookie: request.headers.cookie, 'accept-language': request.headers['accept-language'] })
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    const replies = await Promise.all(READS.map((name) => app.inject({ method: 'GET', url: API_ROUTES[name].path, headers })));
    if (replies.some((reply) => reply.statusCode !== 200)) return null;
    const [profile, addAnother, tabs] = replies.map((reply) => reply.json() as unknown);
    return { profile, addAnother, tabs };
  }

  function noticeOf(page: PageId, params: URLSearchParams, data: RenderJob['data'] | null): PageNotice | null {
    if (!params.has(POSTED_PARAM)) return null;
    if (!data) return { kind: 'sign-in' };
    if (params.get(POSTED_PARAM) === POSTED_TOO_LATE) return { kind: 'submitted' };
    const answers = (data.profile as ProfileRead).answer;
    const errors = errorsOnChosenTabs({ [page]: validatePage(page, answers) }, data.tabs as Record<string, string>)[page] ?? {};
    return Object.keys(errors).length ? { kind: 'problems', errors } : { kind: 'saved' };
  }

  app.decorate('drawFormPage', async function drawFormPage(request: FastifyRequest, path: string, query: string) {
    const page = FORM_PAGES.get(path);
    const params = new URLSearchParams(query);
    // staff's view of an applicant stays drawn by the browser
    if (!pool || !page || params.has('service_token')) return null;
    try {
      const data = request.cookies.logged_in === '1' ? await readsOf(request) : null;
      if (request.cookies.logged_in === '1' && !data) return null;
      // as the browser's location has it, to the letter
      const search = query ? `?${query}` : '';
      const markup = await pool.render(request.language, { path, search, data });
      return markup === null ? null : fillSlots(markup, page, request.language, noticeOf(page, params, data));
    } catch (error) {
      app.log.warn({ err: error }, 'drawing a form page failed');
      return null;
    }
  });
}, { name: 'page-drawing', dependencies: ['sessions', 'language'] });
