import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import messages from '../../../schemas/auth/messages.json';
import apiMessages from '../../../schemas/text/api-messages.json';
import errors from '../../../schemas/text/errors.json';
import { ERROR_CODES } from '../../shared/api/contract.ts';
import type { ApiErrorReply, ErrorCode } from '../../shared/generated/api-types.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { HttpError } from '../lib/http-error.ts';

const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006']);

/** The database could not be reached (stopped, restarting, a connection cut), as opposed to a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
  return typeof message === 'string' && /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Query read timeout|ECONNREFUSED|ECONNRESET/i.test(message);
}

/** A reply's error code is one of the contract's (schemas/api/errors.json), never a library's own. */
const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && ERROR_CODES.includes(code);
const failure = (message: string, code: ErrorCode): ApiErrorReply => ({ message, code });
// a 4xx without a contract code of its own (Fastify's FST_ERR_*, a plugin's) gets the status's
const CLIENT_ERROR_CODES: Partial<Record<number, ErrorCode>> = { 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 413: 'BODY_TOO_LARGE', 415: 'JSON_REQUIRED', 429: 'RATE_LIMITED' };

/** One error shape for every API answer: { message, code?, errors? }. 5xx details stay in the log. */
export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.details.retryAfterSeconds) reply.header('retry-after', String(error.details.retryAfterSeconds));
      return reply.status(error.statusCode).send({ message: error.message, code: error.details.code, errors: error.details.errors, pages: error.details.pages, current: error.details.current } satisfies Partial<ApiErrorReply>);
    }
    const status = error.statusCode ?? 500;
    if ((error as FastifyError).validation) {
      const { validation, validationContext } = error as FastifyError;
      const where = `${validationContext ?? 'body'}${validation![0]?.instancePath ?? ''}`;
      return reply.status(400).send(failure(fillTemplate(apiMessages.invalid_request, { where }), 'INVALID_REQUEST'));
    }
    if (status === 413) return reply.status(413).send(failure(messages.body_too_large, 'BODY_TOO_LARGE'));
    if (status === 429) return reply.status(429).send(failure(error.message, 'RATE_LIMITED'));
    if (status >= 400 && status < 500) {
      // Fastify's own codes (FST_ERR_CTP_INVALID_JSON_BODY, ...) are not the contract's: a client reads only those
      return reply.status(status).send(failure(errors.standard, isErrorCode(error.code) ? error.code : CLIENT_ERROR_CODES[status] ?? 'BAD_REQUEST'));
    }
    if (isDatabaseUnavailable(error)) {
      // a load balancer and the client both read 503 as "try again shortly"
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', '5').send(failure(errors.standard, 'UNAVAILABLE'));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(status >= 500 ? status : 500).send(failure(errors.standard, 'SERVER_ERROR'));
  });
}, { name: 'error-handler' });
