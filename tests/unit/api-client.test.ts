import { afterEach, describe, expect, it, vi } from 'vitest';
import errors from '../../schemas/text/errors.json';
import { apiRequest, setUnauthorizedHandler } from '../../src/client/lib/api-client.ts';
import { ServerError, UnauthorizedError } from '../../src/client/lib/api-errors.ts';

function respond(status: number, body: string, contentType = 'application/json') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'content-type': contentType } })));
}

describe('the API client (spec sections 7 and 8)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('sends JSON with a JSON content type and returns the parsed body', async () => {
    respond(200, '{"message":"ok"}');
    await expect(apiRequest('/api/answer', 'PUT', { first_name: 'Ada' })).resolves.toEqual({ message: 'ok' });
    const [uri, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(uri).toBe('/api/answer');
    expect(init?.method).toBe('PUT');
    expect((init?.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect(init?.body).toBe('{"first_name":"Ada"}');
  });

  it('treats a non-JSON answer as a server error with the standard message, even when OK', async () => {
    respond(200, '<html></html>', 'text/html');
    await expect(apiRequest('/api/profile')).rejects.toMatchObject({ name: 'ServerError', message: errors.standard });
  });

  it('uses the body message of a failure when it is a string, and logs the body', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    respond(409, '{"message":"Your application was already submitted.","code":"SUBMITTED"}');
    const error = await apiRequest('/api/answer', 'PUT', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ message: 'Your application was already submitted.', status: 409, code: 'SUBMITTED' });
    expect(log).toHaveBeenCalled();
    respond(500, '{"message":{"nested":true}}');
    await expect(apiRequest('/api/answer')).rejects.toMatchObject({ message: errors.standard });
  });

  it('raises an unauthorized error on 401 and calls the registered handler', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    respond(401, '{"message":"x"}');
    await expect(apiRequest('/api/profile')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('turns a network failure into a server error with the standard message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    await expect(apiRequest('/api/profile')).rejects.toMatchObject({ message: errors.standard, code: 'NETWORK' });
  });
});
