import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, errorReplySchema, type Endpoint, type JsonSchema } from '../../src/shared/api/contract.ts';
import { ApiSession } from '../../support/api-session.ts';
import { liveCounselorLink } from '../../support/counselor-link.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { unsubscribeToken } from '../../src/server/reminders/unsubscribe-token.ts';
import { makeOfficeKey } from '../../src/server/file-items/office-keys.ts';

/**
 * The API contract (schemas/api/) and the server agree: every route is an endpoint of the
 * contract and every endpoint a route; a body of the wrong shape is refused by the
 * contract, before any service sees it, with the contract's error shape.
 */
const ajv = new Ajv({ strict: false, validateFormats: false });
const isErrorReply = ajv.compile(errorReplySchema);

/** A value of a type the schema does not allow. */
function wrongValue(schema: JsonSchema): unknown {
  const types = [schema.type ?? 'object'].flat();
  if (!types.includes('string')) return 'not this type';
  return types.includes('boolean') ? 12345 : { not: 'a text' };
}

/** Bodies each endpoint's contract refuses: not an object at all, and each property of the wrong type. */
function wrongBodies(endpoint: Endpoint): { label: string; body: unknown }[] {
  const schema = endpoint.body!;
  const bodies: { label: string; body: unknown }[] = [{ label: 'an array for the body', body: ['a', 'list'] }];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) bodies.push({ label: `${name} of the wrong type`, body: { [name]: wrongValue(property) } });
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    bodies.push({ label: 'an entry of the wrong type', body: { first_name: wrongValue(schema.additionalProperties as JsonSchema) } });
  }
  return bodies;
}

const concretePath = (path: string) => path.replace(':key', 'hs_transcript').replace(':applicantId', '00000000-0000-4000-8000-000000000000').replace(':itemId', 'transcript');
const jsonWrites = Object.values(endpoints).filter((endpoint) => endpoint.body);

describe.each(databaseTargets())('the API contract on $name', (target) => {
  let server: TestServer;
  let applicant: ApiSession;

  beforeAll(async () => {
    server = await startTestServerOn(target);
    applicant = await createConfirmedApplicant(server.app, `contract.${target.name}@example.org`);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A live counselor link (a request of a submitted applicant), so the guard lets the body be judged. */
  let counselorLink: Promise<string> | undefined;
  const counselorToken = async () => (await (counselorLink ??= liveCounselorLink(server.app, `contract.counselor.${target.name}@example.org`).then((link) => link.token)));

  it('has an endpoint for every route of the server, and a route for every endpoint', () => {
    const routes = new Set(server.app.routeTable.map((route) => `${route.method} ${route.url}`));
    const contract = new Set(Object.values(endpoints).map((endpoint) => `${endpoint.method} ${endpoint.path}`));
    expect([...routes].filter((route) => !contract.has(route))).toEqual([]); // routes the contract does not describe
    expect([...contract].filter((route) => !routes.has(route))).toEqual([]); // endpoints with no route
    expect(routes.size).toBeGreaterThanOrEqual(30);
  });

  it.each(jsonWrites.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
    'refuses %s with a body of the wrong shape: 400 INVALID_REQUEST in the error shape',
    async (_label, endpoint) => {
      const client = endpoint.access === 'applicant' ? applicant : new ApiSession(server.app);
      // a well-signed token, so the guard lets the body be judged
      const token = endpoint.access === 'unsubscribe-token'
        ? `?token=${unsubscribeToken(await server.app.secrets.get('unsubscribe-key', () => ''), '00000000-0000-4000-8000-000000000000')}` : '';
      // a live office key, or a live counselor link, so the guard lets the body be judged
      const headers: Record<string, string> = endpoint.access === 'office-key' ? { authorization: `Bearer ${(await makeOfficeKey(server.app.db, endpoint.name, 'test')).key}` }
        : endpoint.access === 'counselor-link' ? { 'x-counselor-link': await counselorToken() } : {};
      for (const { label, body } of wrongBodies(endpoint)) {
        const response = await client.request(endpoint.method, `${concretePath(endpoint.path)}${token}`, body, headers);
        expect({ label, status: response.status, code: response.body.code }).toEqual({ label, status: 400, code: 'INVALID_REQUEST' });
        expect(isErrorReply(response.body), `${label}: ${JSON.stringify(response.body)}`).toBe(true);
      }
    },
  );

  it('answers a body Fastify cannot parse with a code of the contract\'s list, never one of Fastify\'s own', async () => {
    const bodies = [
      { label: 'unreadable JSON', type: 'application/json', payload: '{"username": ' },
      { label: 'an empty JSON body', type: 'application/json', payload: '' },
      { label: 'JSON with a proto key', type: 'application/json', payload: '{"__proto__": {"x": 1}}' },
    ];
    for (const { label, type, payload } of bodies) {
      const response = await server.app.inject({ method: 'POST', url: '/public/login', headers: { 'sec-fetch-site': 'same-origin', 'content-type': type }, payload });
      const body = response.json() as { code?: string };
      expect({ label, status: response.statusCode, code: body.code }).toEqual({ label, status: 400, code: 'BAD_REQUEST' });
      expect(isErrorReply(body), `${label}: ${response.body}`).toBe(true);
    }
  });

  it('refuses a save whose clocks are not times: a word, a negative number, a fraction, a nested object', async () => {
    for (const clock of ['soon', -5, 1.5, { at: 1 }]) {
      const response = await applicant.put('/api/answer', { first_name: 'Ada', _clock: { first_name: clock } });
      expect({ clock, status: response.status, code: response.body.code }).toEqual({ clock, status: 400, code: 'INVALID_REQUEST' });
    }
    expect(((await applicant.get('/api/profile')).body as { answer: Record<string, unknown> }).answer.first_name).toBeUndefined(); // nothing of them was written
  });

  it('still answers a well-formed request that breaks a form rule with that rule\'s code and message', async () => {
    const unknownKey = await applicant.put('/api/answer', { no_such_question: 'x' });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.body.code).toBe('UNKNOWN_KEYS');
    expect(isErrorReply(unknownKey.body)).toBe(true);
    const tooMany = await applicant.put('/api/add-another', { button_id: 'add_honor', num_components: 99 });
    expect(tooMany.body.code).toBe('BAD_COUNT');
  });

  it('serves the contract as an OpenAPI 3.1 document that an OpenAPI validator accepts', async () => {
    const response = await new ApiSession(server.app).get<{ openapi: string; paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: { properties?: { code?: { enum?: string[] } } } }> }> }>> }>('/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    const result = await new Validator().validate(response.body as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const operations = Object.values(response.body.paths).flatMap((methods) => Object.values(methods));
    expect(operations.map((operation) => operation.operationId).sort()).toEqual(Object.keys(endpoints).sort());
    // each route's errors with their codes: a save lists the contract's refusal, the form's and the submitted lock
    const save = response.body.paths['/api/answer']!.put!;
    expect(save.responses['400']!.content!['application/json']!.schema.properties!.code!.enum).toEqual(expect.arrayContaining(['INVALID_REQUEST', 'UNKNOWN_KEYS', 'BAD_ANSWER']));
    expect(save.responses['409']!.content!['application/json']!.schema.properties!.code!.enum).toEqual(['SUBMITTED']);
    expect(save.responses['401']!.content!['application/json']!.schema.properties!.code!.enum).toEqual(['UNAUTHORIZED']);
    expect(Object.keys(response.body.paths)).toContain('/api/pdf/document-answer/{key}');
  });

  it('sends only what a reply schema names', async () => {
    const profile = await applicant.get('/api/profile');
    expect(profile.status).toBe(200);
    const isProfile = ajv.compile(endpoints.profile!.replies['200']!);
    expect(isProfile(profile.body), JSON.stringify(isProfile.errors)).toBe(true);
  });
});
