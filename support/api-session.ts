import type { FastifyInstance } from 'fastify';
import type { ApiEndpoints, EndpointName } from '../src/shared/generated/api-types.ts';
import { API_ROUTES } from '../src/shared/generated/api-types.ts';
import { latestOutboxMessage } from '../src/server/db/repositories/outbox-repository.ts';

export const STRONG_PASSWORD = 'Maple-Harbor-2031!';

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** The error reply of every endpoint (schemas/api/errors.json). */
export interface ApiError {
  message: string;
  code: string;
  errors?: Record<string, string[]>;
  current?: Record<string, unknown>;
}

/** What a call of endpoint N sends: the parts it has. */
export type EndpointCall<N extends EndpointName> =
  & ([ApiEndpoints[N]['body']] extends [never] ? { body?: never } : { body?: ApiEndpoints[N]['body'] })
  & ([ApiEndpoints[N]['query']] extends [never] ? { query?: never } : { query?: ApiEndpoints[N]['query'] })
  & ([ApiEndpoints[N]['params']] extends [never] ? { params?: never } : { params?: ApiEndpoints[N]['params'] });

/**
 * A client of the real server through app.inject, keeping cookies like a browser of our
 * own origin does (it sends Sec-Fetch-Site: same-origin).
 */
export class ApiSession {
  readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  async request<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        'sec-fetch-site': 'same-origin',
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(method === 'GET' ? {} : { payload: JSON.stringify(body ?? {}) }),
    });
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0) || (cookie.expires && cookie.expires.getTime() < Date.now())) {
        this.cookies.delete(cookie.name);
      } else {
        this.cookies.set(cookie.name, cookie.value);
      }
    }
    let parsed: unknown = response.body;
    try {
      parsed = response.json();
    } catch {
      // not JSON: the raw text stays
    }
    return { status: response.statusCode, body: parsed as T, headers: response.headers };
  }

  /**
   * Calls a contract endpoint by its name (schemas/api/), its input and reply typed from the
   * contract: the path's params filled in, the query added.
   */
  call<N extends EndpointName>(name: N, input: EndpointCall<N> = {}): Promise<ApiResponse<ApiEndpoints[N]['reply'] | ApiError>> {
    const { method, path } = API_ROUTES[name];
    const params = (input.params ?? {}) as Record<string, string>;
    const filled = path.replace(/:(\w+)/g, (_all, key: string) => encodeURIComponent(params[key] ?? ''));
    const query = input.query ? `?${new URLSearchParams(input.query as Record<string, string>)}` : '';
    return this.request(method, `${filled}${query}`, input.body);
  }

  get = <T = Record<string, unknown>>(url: string, headers?: Record<string, string>) => this.request<T>('GET', url, undefined, headers);
  post = <T = Record<string, unknown>>(url: string, body?: unknown, headers?: Record<string, string>) => this.request<T>('POST', url, body, headers);
  put = <T = Record<string, unknown>>(url: string, body?: unknown, headers?: Record<string, string>) => this.request<T>('PUT', url, body, headers);
}

/** The newest outbox mail (no SMTP_URL) to an address, once every mail queued to it has gone. */
export async function outboxMail(app: FastifyInstance, email: string): Promise<{ subject: string; body: string }> {
  // a generous deadline, not a timing claim: a busy machine may take seconds to run the mail job
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // mails are jobs: one just queued may not be in the outbox yet (nor have its address: sendLater)
    const queued = await app.db.selectFrom('mails').select('id').where('status', '=', 'queued').executeTakeFirst();
    const message = queued ? undefined : await latestOutboxMessage(app.db, email);
    if (message) return message;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no outbox mail to ${email}`);
}

export async function outboxCode(app: FastifyInstance, email: string): Promise<string> {
  const { body } = await outboxMail(app, email);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code in ${body}`);
  return code;
}

/**
 * Signs up, reads the code from the outbox, confirms and logs in through the API, as an
 * applicant does: for the tests whose subject is the sign-up or its mail. Others seed one
 * (`createConfirmedApplicant` in support/seed.ts).
 */
export async function signUpThroughMail(app: FastifyInstance, email: string, password = STRONG_PASSWORD): Promise<ApiSession> {
  const session = new ApiSession(app);
  const signup = await session.post('/public/signup', { username: email, password });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const code = await outboxCode(app, email);
  const confirm = await session.post('/public/confirm', { username: email, code });
  if (confirm.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirm.body)}`);
  const login = await session.post('/public/login', { username: email, password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return session;
}
