import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import messages from '../../../schemas/auth/messages.json';
import apiMessages from '../../../schemas/text/api-messages.json';
import errors from '../../../schemas/text/errors.json';
import { ERROR_CODES } from '../../shared/api/contract.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { HttpError } from '../lib/http-error.ts';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

/** The database could not be reached (stopped, restarting, a connection cut), as opposed to a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Query read timeout|ECONNREFUSED|ECONNRESET/i.test(message);
}

const CLIENT_ERROR_CODES: Record<number, string> = { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 413: 'BODY_TOO_LARGE', 415: 'JSON_REQUIRED', 429: 'RATE_LIMITED' };

/** The code of the contract's error list for a 4xx: the error's own when the contract has it, else the status's. */
function contractCodeOf(code: string | undefined, status: number): string {
  if (code && ERROR_CODES.includes(code)) return code;
  return CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST';
}

/** One error shape for every API answer: { message, code?, errors? }. 5xx details stay in the log. */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.details.retryAfterSeconds) reply.header('retry-after', String(error.details.retryAfterSeconds));
      return reply.status(error.statusCode).send({ message: error.message, code: error.details.code, errors: error.details.errors, pages: error.details.pages });
    }
    const status = error.statusCode ?? 500;
    if ((error as FastifyError).validation) {
      const { validation, validationContext } = error as FastifyError;
      const where = `${validationContext ?? 'body'}${validation![0]?.instancePath ?? ''}`;
      return reply.status(400).send({ message: fillTemplate(apiMessages.invalid_request, { where }), code: 'INVALID_REQUEST' });
    }
    if (status === 413) return reply.status(413).send({ message: messages.body_too_large, code: 'BODY_TOO_LARGE' });
    if (status === 429) return reply.status(429).send({ message: error.message, code: 'RATE_LIMITED' });
    if (status >= 400 && status < 500) {
      // Fastify's own codes (FST_ERR_CTP_INVALID_JSON_BODY, ...) are not the contract's: a client reads only those
      return reply.status(status).send({ message: errors.standard, code: contractCodeOf(error.code, status) });
    }
    if (isDatabaseUnavailable(error)) {
      // a load balancer and the client both read 503 as "try again shortly"
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send({ message: errors.standard, code: 'UNAVAILABLE' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(status >= 500 ? status : 500).send({ message: errors.standard, code: 'SERVER_ERROR' });
  });
}, { name: 'error-handler' });
