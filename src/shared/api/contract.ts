import accounts from '../../../schemas/api/accounts.json';
import application from '../../../schemas/api/application.json';
import applicationFile from '../../../schemas/api/application-file.json';
import definitions from '../../../schemas/api/definitions.json';
import documents from '../../../schemas/api/documents.json';
import errorCatalogue from '../../../schemas/api/errors.json';
import lookups from '../../../schemas/api/lookups.json';
import reminders from '../../../schemas/api/reminders.json';
import system from '../../../schemas/api/system.json';

/**
 * The API contract (schemas/api/): every endpoint's method, path, inputs and replies as
 * JSON Schema, and the closed list of error codes. The server registers its routes from
 * it (Fastify validates requests and serialises replies with these schemas), the OpenAPI
 * document is made from it, and the generated types in shared/generated/api-types.ts.
 */
export type JsonSchema = Record<string, unknown>;
export type Access = 'public' | 'applicant' | 'service-token' | 'upload-policy' | 'unsubscribe-token' | 'counselor-link' | 'office-key';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Endpoint {
  name: string;
  /** the file of schemas/api/ it is in, for the OpenAPI tags */
  area: string;
  method: HttpMethod;
  /** Fastify's form: /api/pdf/document-answer/:key */
  path: string;
  access: Access;
  summary: string;
  /** served only with local storage (POST /uploads) */
  local?: boolean;
  consumes?: string;
  produces?: string;
  body?: JsonSchema;
  querystring?: JsonSchema;
  params?: JsonSchema;
  /** reply schema by status; null: no body (204) */
  replies: Record<string, JsonSchema | null>;
  /** error codes by status, the endpoint's own and those every endpoint of its kind can answer */
  errors: Record<string, string[]>;
}

const areas = { accounts, application, 'application-file': applicationFile, documents, lookups, reminders, system };

export const ERROR_CODES = Object.keys(errorCatalogue.codes);
export const errorDescriptions: Record<string, string> = errorCatalogue.codes;

/** Inlines {"$ref": "definitions.json#/Name"}: each endpoint's schemas stand alone. */
function resolve(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolve);
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const name = /^definitions\.json#\/(\w+)$/.exec(ref)?.[1];
    const target = name ? (definitions as Record<string, unknown>)[name] : undefined;
    if (!target) throw new Error(`schemas/api: unknown reference ${ref}`);
    return resolve(target);
  }
  if ((schema as { $codes?: unknown }).$codes === true) return ERROR_CODES;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolve(value)]));
}

/** The error reply every error status answers with. */
export const errorReplySchema = resolve(errorCatalogue.reply) as JsonSchema;

const WRITES = new Set<HttpMethod>(['POST', 'PUT', 'DELETE']);

function allErrors(endpoint: Omit<Endpoint, 'errors'>, own: Record<string, string[]>): Record<string, string[]> {
  const { every, withInput, write, applicant, counselorLink, officeKey } = errorCatalogue.common;
  const kinds: Record<string, string[]>[] = [own, every];
  if (endpoint.body || endpoint.querystring || endpoint.params) kinds.push(withInput);
  // an office key is no cookie a browser adds by itself: its writes have no cross-site rule (plugins/security.ts)
  if (WRITES.has(endpoint.method)) kinds.push(endpoint.access === 'office-key' ? Object.fromEntries(Object.entries(write).filter(([status]) => status !== '403')) : write);
  if (endpoint.access === 'applicant') kinds.push(applicant);
  if (endpoint.access === 'counselor-link') kinds.push(counselorLink);
  if (endpoint.access === 'office-key') kinds.push(officeKey);
  const merged: Record<string, Set<string>> = {};
  for (const kind of kinds) for (const [status, codes] of Object.entries(kind)) for (const code of codes) (merged[status] ??= new Set()).add(code);
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => Number(a) - Number(b)).map(([status, codes]) => [status, [...codes]]));
}

function endpointsOf(): Record<string, Endpoint> {
  const all: Record<string, Endpoint> = {};
  for (const [area, file] of Object.entries(areas)) {
    for (const [name, raw] of Object.entries(file.endpoints as Record<string, Record<string, unknown>>)) {
      if (all[name]) throw new Error(`schemas/api: endpoint ${name} is defined twice`);
      const { errors = {}, ...rest } = resolve(raw) as Omit<Endpoint, 'name' | 'area' | 'errors'> & { errors?: Record<string, string[]> };
      for (const code of Object.values(errors).flat()) if (!ERROR_CODES.includes(code)) throw new Error(`schemas/api: ${name} names an unknown error code ${code}`);
      const endpoint = { name, area, ...rest };
      all[name] = { ...endpoint, errors: allErrors(endpoint, errors) };
    }
  }
  return all;
}

export const endpoints: Record<string, Endpoint> = endpointsOf();
export const areaDescriptions: Record<string, { title: string; description: string }> = Object.fromEntries(
  Object.entries(areas).map(([area, file]) => [area, { title: file.title, description: file.description }]),
);
