import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Access, Endpoint } from '../../src/shared/api/contract.ts';
import { endpoints } from '../../src/shared/api/contract.ts';
import { ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { startTestServer, type TestServer } from '../../support/test-server.ts';
import { routeKind, unclassified, listRoutes } from '../fixtures/attack-routes.ts';

/**
 * One contract entry declares an endpoint: registering it by its name puts it behind the
 * guard its `access` names (no hook added by hand), checks its request and reply against the
 * entry's schemas, and types its handler from the generated contract types, reply included.
 * A route registered outside the contract is caught by the inventory; an endpoint whose access
 * nobody guards is refused at registration.
 */

/** A new endpoint as a newcomer would declare it in schemas/api/application.json. */
const whoAmI: Endpoint = {
  name: 'whoAmI', area: 'application', method: 'GET', path: '/api/who-am-i', access: 'applicant',
  summary: 'The signed-in applicant\'s e-mail address',
  replies: { 200: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'], additionalProperties: false } },
  errors: { 401: ['UNAUTHORIZED'] },
};

/** The routes the server has that the contract does not describe (the built client's files and page posts aside). */
function routesOutsideContract(app: FastifyInstance): string[] {
  const contract = new Set(Object.values(endpoints).map((endpoint) => `${endpoint.method} ${endpoint.path}`));
  return app.routeTable.map((route) => `${route.method} ${route.url}`).filter((route) => !contract.has(route));
}

describe('an endpoint declared by one contract entry', () => {
  let server: TestServer;
  let sneaky: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ listen: false });
    server.app.endpointFrom(whoAmI, async (request) => ({ email: request.applicant!.email, password_hash: 'never sent' }));
    sneaky = await startTestServer({ listen: false });
    // a route a newcomer added by hand, past the contract
    sneaky.app.get('/api/sneaky', async () => ({ secret: true }));
  });
  afterAll(async () => {
    await server?.close();
    await sneaky?.close();
  });

  it('is behind the guard its access names, and sends only what its reply schema names', async () => {
    const anonymous = await new ApiSession(server.app).get<{ code: string }>('/api/who-am-i');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('UNAUTHORIZED');
    const applicant = await createConfirmedApplicant(server.app, 'who.am.i@example.org');
    const reply = await applicant.get('/api/who-am-i');
    expect(reply).toMatchObject({ status: 200, body: { email: 'who.am.i@example.org' } });
    expect(reply.body).not.toHaveProperty('password_hash');
  });

  it('is attacked as its access says the moment it is in the contract', () => {
    expect(routeKind({ method: 'GET', url: whoAmI.path })).toBeUndefined(); // not in schemas/api: this test's own
    for (const endpoint of Object.values(endpoints)) {
      expect(routeKind({ method: endpoint.method, url: endpoint.path }), endpoint.name).toBeDefined();
    }
    expect(unclassified(listRoutes(server.app))).toEqual([`GET ${whoAmI.path}`, `HEAD ${whoAmI.path}`]);
  });

  it('is refused at registration when no plugin guards its access: nothing is public by being forgotten', async () => {
    const unguarded = { ...whoAmI, name: 'staffOnly', path: '/api/staff-only', access: 'admin-channel' as Access };
    expect(() => server.app.endpointFrom(unguarded, async () => ({ email: '' }))).toThrow(/needs "admin-channel" access, and no plugin guards it/);
  });

  it('leaves no route outside the contract: the inventory names one added by hand', () => {
    expect(routesOutsideContract(server.app)).toEqual([`GET ${whoAmI.path}`]);
    expect(routesOutsideContract(sneaky.app)).toEqual(['GET /api/sneaky']);
  });

  it('types each handler from the contract, its reply included (what check:types proves)', () => {
    // not called: `npm run check:types` compiles it, and fails if any line below marked as an
    // error ever compiles (an unused @ts-expect-error is itself an error)
    const register = (app: FastifyInstance) => {
      // @ts-expect-error: the profile's reply has none of these
      app.endpoint('profile', async () => ({ nonsense: true }));
      // @ts-expect-error: not a status the contract's enum has
      app.endpoint('postStatus', async () => ({ web_status: 'approved' }));
      // @ts-expect-error: the body of saveTab has no `tab` (it has tab_id and chosen_tab)
      app.endpoint('saveTab', async (request) => ({ tab_id: request.body.tab, chosen_tab: '' }));
      app.endpoint('postStatus', async () => ({ web_status: 'started' as const }));
    };
    expect(register).toBeTypeOf('function');
  });
});
