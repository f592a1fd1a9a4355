import { ServerError, UnauthorizedError, standardMessage } from './api-errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

type UnauthorizedHandler = (error: UnauthorizedError) => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** The app registers what a 401 does: clear cached data and go to /login (spec section 8). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('application/json');
}

/**
 * Every call of spec section 7: JSON in and out. A non-JSON answer is a server error with
 * the standard message; 401 is an unauthorized error; other failures carry the body's message.
 */
export async function apiRequest<T>(uri: string, method: HttpMethod = 'GET', payload?: unknown, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(uri, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      // writes always carry a JSON body: the server refuses anything else
      body: method === 'GET' ? undefined : JSON.stringify(payload ?? {}),
      ...init,
    });
  } catch {
    throw new ServerError(standardMessage, 0, 'NETWORK');
  }
  if (!isJson(response)) throw new ServerError(standardMessage, response.status, 'NOT_JSON');
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ServerError(standardMessage, response.status, 'NOT_JSON');
  }
  if (!response.ok) {
    console.error(`${method} ${uri} failed with ${response.status}`, body);
    const { message, code, errors } = (body ?? {}) as { message?: unknown; code?: string; errors?: Record<string, string[]> };
    const text = typeof message === 'string' ? message : standardMessage;
    if (response.status === 401) {
      const error = new UnauthorizedError(text);
      onUnauthorized(error);
      throw error;
    }
    throw new ServerError(text, response.status, code, errors, body);
  }
  return body as T;
}
