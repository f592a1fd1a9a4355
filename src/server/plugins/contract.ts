import Ajv from 'ajv';
import type {
  FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteGenericInterface, RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { endpoints, errorReplySchema, type JsonSchema } from '../../shared/api/contract.ts';
import type { ApiEndpoints, EndpointName } from '../../shared/generated/api-types.ts';
import { ajvOptions } from '../../shared/validation/ajv-options.ts';

/** A contract endpoint's request parts as the generated types give them (never: it has none). */
export interface EndpointRequest<N extends EndpointName> extends RouteGenericInterface {
  Body: ApiEndpoints[N]['body'];
  Querystring: ApiEndpoints[N]['query'];
  Params: ApiEndpoints[N]['params'];
}

/** The handler of a contract endpoint: its body, query and params typed from schemas/api, no cast. */
export type EndpointHandler<N extends EndpointName> =
  RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, EndpointRequest<N>>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Registers the route of a contract endpoint (schemas/api/): its method and path, and
     * its schemas, with which Fastify checks the request and writes the reply (only what
     * the reply schema names leaves the server).
     */
    endpoint<N extends EndpointName>(name: N, handler: EndpointHandler<N>, options?: Pick<RouteShorthandOptions, 'onRequest'>): void;
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

  app.decorate('endpoint', function endpoint<N extends EndpointName>(this: FastifyInstance, name: N, handler: EndpointHandler<N>, options = {}) {
    const { method, path, body, querystring, params, replies, errors, produces } = endpoints[name]!;
    const response: Record<string, JsonSchema> = {};
    for (const status of Object.keys(errors)) response[status] = errorReplySchema;
    for (const [status, schema] of Object.entries(replies)) if (schema && !produces) response[status] = schema;
    // only the parts the endpoint has: Fastify warns of a schema part that is there but undefined
    const schema = Object.fromEntries(Object.entries({ body, querystring, params, response }).filter(([, part]) => part !== undefined));
    // the schemas above are what make the handler's types true: Fastify checks each request against them
    this.route<EndpointRequest<N>>({ method, url: path, schema, handler, ...options });
  });
}, { name: 'contract' });
