import { afterEach, describe, expect, it, vi } from 'vitest';
import errors from '../../schemas/text/errors.json';
import { apiRequest, callEndpoint, endpointUrl, setUnauthorizedHandler } from '../../src/client/lib/api-client.ts';
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

  it('calls an endpoint by its contract name: method and path from schemas/api, params encoded, query appended', async () => {
    respond(200, '{"status":"IN_PROGRESS"}');
    await expect(callEndpoint('documentStatus', { params: { key: 'hs_transcript' } })).resolves.toEqual({ status: 'IN_PROGRESS' });
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/pdf/document-answer/hs_transcript');
    expect(vi.mocked(fetch).mock.calls[0]![1]?.method).toBe('GET');

    respond(200, '{"message":"ok"}');
    await callEndpoint('removeDocument', { params: { key: '../x y' } });
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/document-answer/..%2Fx%20y');
    expect(vi.mocked(fetch).mock.calls[0]![1]?.method).toBe('DELETE');

    respond(200, '{"message":"ok"}');
    await callEndpoint('saveTab', { body: { tab_id: 'activities_tabs', chosen_tab: 'resume' } });
    expect(vi.mocked(fetch).mock.calls[0]![0]).toBe('/api/tabs');
    expect(vi.mocked(fetch).mock.calls[0]![1]).toMatchObject({ method: 'PUT', body: '{"tab_id":"activities_tabs","chosen_tab":"resume"}' });

    expect(endpointUrl('findLookups', { query: { category: 'address', text: 'San José', id: undefined } })).toBe('/lookup/find?category=address&text=San+Jos%C3%A9');
    expect(endpointUrl('applicationPdf')).toBe('/api/pdf');
  });

  it('carries the contract error code of a refusal, for the client to switch on', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    respond(403, '{"message":"Please confirm your account.","code":"USER_NOT_CONFIRMED"}');
    const error = await callEndpoint('login', { body: { username: 'a@example.org', password: 'x' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).code).toBe('USER_NOT_CONFIRMED');
  });
});
