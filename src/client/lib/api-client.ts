import { API_ROUTES, type ApiEndpoints, type EndpointName } from '../../shared/generated/api-types.ts';
import { ServerError, UnauthorizedError, standardMessage, type ClientErrorCode } from './api-errors.ts';
import { failUnlessLeaving } from './page-leaving.ts';

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
 * A request the browser cuts off as the page is left is no failure (page-leaving.ts).
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
    return failUnlessLeaving(new ServerError(standardMessage, 0, 'NETWORK'));
  }
  if (!isJson(response)) throw new ServerError(standardMessage, response.status, 'NOT_JSON');
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return failUnlessLeaving(new ServerError(standardMessage, response.status, 'NOT_JSON'));
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
    throw new ServerError(text, response.status, code as ClientErrorCode | undefined, errors, body);
  }
  return body as T;
}

/** A part of a request (body, query or path params): required when the contract has it, absent when not. */
type Part<T, K extends string> = [T] extends [never] ? { [P in K]?: never } : { [P in K]: T };

/** What a call of endpoint N carries, typed from the contract (schemas/api/). */
export type EndpointInput<N extends EndpointName> = Part<ApiEndpoints[N]['body'], 'body'>
  & Part<ApiEndpoints[N]['query'], 'query'>
  & Part<ApiEndpoints[N]['params'], 'params'>;

export type EndpointReply<N extends EndpointName> = ApiEndpoints[N]['reply'];

/** The input may be left out when the endpoint takes nothing. */
type InputArgs<N extends EndpointName> = object extends EndpointInput<N>
  ? [input?: EndpointInput<N>, init?: RequestInit]
  : [input: EndpointInput<N>, init?: RequestInit];

/**
 * The address of endpoint N: its contract path with the params filled in (encoded) and the
 * query appended. Also the SWR key of a read, so a key and its call cannot disagree.
 */
export function endpointUrl<N extends EndpointName>(name: N, input: Pick<EndpointInput<N>, 'query' | 'params'> = {}): string {
  const params = (input.params ?? {}) as Record<string, string>;
  const path = API_ROUTES[name].path.replace(/:([a-z_]+)/g, (_match, param: string) => {
    const value = params[param];
    if (value === undefined) throw new Error(`${name}: the path parameter ${param} is missing`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(Object.entries((input.query ?? {}) as Record<string, string | undefined>)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  return query ? `${path}?${query}` : path;
}

/** Calls endpoint N of the contract: method and path from the contract, body, query and reply typed from it. */
export function callEndpoint<N extends EndpointName>(name: N, ...[input, init]: InputArgs<N>): Promise<EndpointReply<N>> {
  const { body, ...address } = (input ?? {}) as EndpointInput<N>;
  return apiRequest<EndpointReply<N>>(endpointUrl(name, address), API_ROUTES[name].method, body, init);
}
