import Ajv from 'ajv';
import type {
  FastifyInstance, FastifyReply, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import fp from 'fastify-plugin';
import { endpoints, errorReplySchema, type Access, type Endpoint, type JsonSchema } from '../../shared/api/contract.ts';
import type { ApiEndpoints, EndpointName } from '../../shared/generated/api-types.ts';
import { ajvOptions } from '../../shared/validation/ajv-options.ts';

/** A contract endpoint's request parts and reply as the generated types give them (never: it has none). */
export interface EndpointRequest<N extends EndpointName> extends RouteGenericInterface {
  Body: ApiEndpoints[N]['body'];
  Querystring: ApiEndpoints[N]['query'];
  Params: ApiEndpoints[N]['params'];
  Reply: ApiEndpoints[N]['reply'];
}

/**
 * The handler of a contract endpoint: its body, query and params typed from schemas/api, no
 * cast, and what it returns (or sends) checked against the reply the contract gives.
 */
export type EndpointHandler<N extends EndpointName> =
  RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, EndpointRequest<N>>;

/** What lets a request of one access kind through (an onRequest hook that throws to refuse). */
export type AccessGuard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the contract entry's access kind, for hooks that treat one kind apart (plugins/security.ts) */
    access?: Access;
  }
  interface FastifyInstance {
    /**
     * Registers the route of a contract endpoint (schemas/api/): its method and path, and
     * its schemas, with which Fastify checks the request and writes the reply (only what
     * the reply schema names leaves the server).
     */
    endpoint<N extends EndpointName>(name: N, handler: EndpointHandler<N>): void;
    /**
     * Registers a route from a contract entry (what `endpoint` does with schemas/api's): for an
     * entry that is not in schemas/api, only a test of the contract's own rules does this.
     */
    endpointFrom(entry: Endpoint, handler: RouteHandlerMethod): void;
    /**
     * Says what lets a request of one access kind through; the plugin that owns the
     * credential (sessions, staff links, upload policies) gives it. An endpoint whose access
     * has no guard is refused at registration: nothing is public by being forgotten.
     */
    guardAccess(access: Exclude<Access, 'public'>, guard: AccessGuard): void;
    /**
     * Every route the server registered but the client's static files (HEAD twins left
     * out), to hold against the contract.
     */
    routeTable: { method: string; url: string }[];
  }
}

/** The shared ajv options, for requests: nothing coerced, nothing removed, no defaults filled in. */
const requestAjv = new Ajv({
  ...ajvOptions, code: undefined, allErrors: false, $data: false,
  coerceTypes: false, removeAdditional: false, useDefaults: false, validateFormats: false,
});

export default fp(async function contract(app: FastifyInstance) {
  app.setValidatorCompiler(({ schema }) => requestAjv.compile(schema as JsonSchema));
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return; // @fastify/static's files of the built client
    for (const method of [route.method].flat()) if (method !== 'HEAD') routeTable.push({ method, url: route.url });
  });

  const guards = new Map<Access, AccessGuard>();
  app.decorate('guardAccess', (access: Exclude<Access, 'public'>, guard: AccessGuard) => void guards.set(access, guard));

  /**
   * The route of a contract entry: its method and path, its schemas (Fastify checks the
   * request and writes the reply with them: only what the reply schema names leaves the
   * server), and the guard its `access` names, before anything else of the route runs.
   */
  function routeOf(instance: FastifyInstance, entry: Endpoint, handler: RouteHandlerMethod): void {
    const { method, path, body, querystring, params, replies, errors, produces, access } = entry;
    const guard = access === 'public' ? undefined : guards.get(access);
    if (access !== 'public' && !guard) throw new Error(`schemas/api: ${entry.name} needs "${access}" access, and no plugin guards it`);
    const response: Record<string, JsonSchema> = {};
    for (const status of Object.keys(errors)) response[status] = errorReplySchema;
    for (const [status, schema] of Object.entries(replies)) if (schema && !produces) response[status] = schema;
    // only the parts the endpoint has: Fastify warns of a schema part that is there but undefined
    const schema = Object.fromEntries(Object.entries({ body, querystring, params, response }).filter(([, part]) => part !== undefined));
    // the schemas above are what make the handler's types true: Fastify checks each request against them
    instance.route({ method, url: path, schema, handler, config: { access }, ...(guard ? { onRequest: guard } : {}) });
  }

  app.decorate('endpoint', function endpoint<N extends EndpointName>(this: FastifyInstance, name: N, handler: EndpointHandler<N>) {
    routeOf(this, endpoints[name]!, handler as RouteHandlerMethod);
  });
  app.decorate('endpointFrom', function endpointFrom(this: FastifyInstance, entry: Endpoint, handler: RouteHandlerMethod) {
    routeOf(this, entry, handler);
  });
}, { name: 'contract' });
