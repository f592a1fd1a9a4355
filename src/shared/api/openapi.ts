import { areaDescriptions, endpoints, errorDescriptions, errorReplySchema, type Endpoint, type JsonSchema } from './contract.ts';

/**
 * The contract as an OpenAPI 3.1 document (GET /api/openapi.json), for an integrator's
 * client generator: every endpoint with its inputs, its reply and each error status with
 * the codes it can carry.
 */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function parameters(endpoint: Endpoint): object[] {
  const from = (schema: JsonSchema | undefined, place: 'query' | 'path') => {
    const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema?.required ?? []) as string[]);
    return Object.entries(properties).map(([name, property]) => ({
      name, in: place, required: place === 'path' || required.has(name), schema: property,
      ...(typeof property.description === 'string' ? { description: property.description } : {}),
    }));
  };
  return [...from(endpoint.params, 'path'), ...from(endpoint.querystring, 'query')];
}

function responses(endpoint: Endpoint): Record<string, object> {
  const result: Record<string, object> = {};
  for (const [status, schema] of Object.entries(endpoint.replies)) {
    const type = endpoint.produces ?? 'application/json';
    result[status] = schema === null
      ? { description: 'Done; no body.' }
      : { description: endpoint.summary, content: { [type]: { schema } } };
  }
  for (const [status, codes] of Object.entries(endpoint.errors)) {
    if (result[status]) continue;
    result[status] = {
      description: codes.map((code) => `${code}: ${errorDescriptions[code]}`).join('\n'),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error', properties: { code: { enum: codes } } } } },
    };
  }
  return result;
}

const security: Record<Endpoint['access'], object[] | undefined> = {
  public: [],
  applicant: [{ session: [] }],
  'service-token': [{ serviceToken: [] }],
  'upload-policy': [],
  'unsubscribe-token': [{ unsubscribeToken: [] }],
  'counselor-link': [{ counselorLink: [] }],
  'office-key': [{ officeKey: [] }],
};

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, object>> = {};
  for (const endpoint of Object.values(endpoints)) {
    const operation: Record<string, unknown> = {
      operationId: endpoint.name,
      summary: endpoint.summary,
      tags: [areaDescriptions[endpoint.area]!.title],
      security: security[endpoint.access],
      responses: responses(endpoint),
    };
    const parameterList = parameters(endpoint);
    if (parameterList.length) operation.parameters = parameterList;
    if (endpoint.body) {
      // the one-click unsubscribe also takes the forms a mail provider posts (RFC 8058)
      const types = endpoint.access === 'unsubscribe-token' ? ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] : ['application/json'];
      operation.requestBody = { required: true, content: Object.fromEntries(types.map((type) => [type, { schema: endpoint.body }])) };
    }
    else if (endpoint.consumes) operation.requestBody = { required: true, content: { [endpoint.consumes]: { schema: { type: 'object' } } } };
    if (endpoint.local) operation.description = 'Only when files are kept on the server\'s disk (no S3 bucket configured).';
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Admission application API',
      version,
      description: 'The API of the online admission application, generated from its contract (schemas/api/). Writes are same-origin JSON; the session is a cookie set by POST /public/login.',
    },
    tags: Object.values(areaDescriptions).map(({ title, description }) => ({ name: title, description })),
    paths,
    components: {
      schemas: { Error: errorReplySchema },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'session', description: '__Host-session when the application is served over https' },
        serviceToken: { type: 'apiKey', in: 'query', name: 'service_token', description: 'A signed, expiring link for staff (npm run service-link)' },
        unsubscribeToken: { type: 'apiKey', in: 'query', name: 'token', description: 'The signed token of a reminder e-mail\'s unsubscribe link' },
        counselorLink: { type: 'apiKey', in: 'header', name: 'X-Counselor-Link', description: 'The signed token of a counselor\'s upload link: one applicant, one item, until it expires or is withdrawn' },
        officeKey: { type: 'http', scheme: 'bearer', description: 'An office integration key (npm run office-key): never an applicant\'s session' },
      },
    },
  };
}
