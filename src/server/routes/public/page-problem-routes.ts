import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { clientNetwork } from '../../lib/client-network.ts';
import { perAddressLimit } from '../../lib/too-many-requests.ts';

/** A page reports a handful at most (one per section drawn afresh); more from one client network is noise, or someone filling the log. */
const REPORTS_PER_IP_PER_MINUTE = 30;

/**
 * POST /public/page-problem: a page the server drew that the browser drew differently, in
 * the server's log (a warning), so that a difference between the two drawings is seen and
 * fixed. The browser keeps what was typed either way; no answer is sent.
 */
export default async function pageProblemRoutes(app: FastifyInstance) {
  await app.register(rateLimit, perAddressLimit(REPORTS_PER_IP_PER_MINUTE, (ip) => `${clientNetwork(ip, app.config.networkPrefixV4)}|page-problem`));

  app.endpoint('reportPageProblem', async (request) => {
    const { problem, page, section, detail } = request.body;
    request.log.warn({ pageProblem: { problem, page, section, detail, language: request.language } }, 'a page the server drew was drawn differently by the browser');
    return {};
  });
}
