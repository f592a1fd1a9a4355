import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { endpoints, ERROR_CODES, errorReplySchema, type JsonSchema } from '../../src/shared/api/contract.ts';

const bannerComment = '/* Generated from schemas/api/ by scripts/generate.ts. Do not edit by hand. */';
// no `| undefined` on index signatures: noUncheckedIndexedAccess already adds it on reads, and a map read from the API is a plain Record
const options = { bannerComment: '', additionalProperties: false, strictIndexSignatures: false, format: false, declareExternallyReferenced: false };

const pascal = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

async function typeOf(schema: JsonSchema | null | undefined, name: string): Promise<string> {
  if (schema === undefined) return `export type ${name} = never;\n`;
  if (schema === null) return `export type ${name} = void;\n`;
  // bytes: the server sends a Buffer (a Uint8Array), the browser reads them as it likes
  if (schema.format === 'binary') return `export type ${name} = Uint8Array;\n`;
  return compile({ ...schema, title: name } as JSONSchema, name, options);
}

/** src/shared/generated/api-types.ts: each endpoint's body, query, params and reply, its method and path, the endpoint names and the error codes. */
export async function generateApiTypes(): Promise<string> {
  const parts = [bannerComment];
  const rows: string[] = [];
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const type = pascal(name);
    const success = Object.keys(endpoint.replies).find((status) => status.startsWith('2'))!;
    parts.push(await typeOf(endpoint.body, `${type}Body`));
    parts.push(await typeOf(endpoint.querystring, `${type}Query`));
    parts.push(await typeOf(endpoint.params, `${type}Params`));
    parts.push(await typeOf(endpoint.replies[success], `${type}Reply`));
    rows.push(`  ${name}: { method: '${endpoint.method}'; path: '${endpoint.path}'; body: ${type}Body; query: ${type}Query; params: ${type}Params; reply: ${type}Reply };`);
  }
  parts.push(`export interface ApiEndpoints {\n${rows.join('\n')}\n}\n`);
  // the one place the client finds an endpoint's method and path (no URL strings in the client)
  const routes = Object.entries(endpoints).map(([name, endpoint]) => `  ${name}: { method: '${endpoint.method}', path: '${endpoint.path}' },`);
  parts.push(`export const API_ROUTES = {\n${routes.join('\n')}\n} as const satisfies { [N in keyof ApiEndpoints]: Pick<ApiEndpoints[N], 'method' | 'path'> };\n`);
  parts.push('export type EndpointName = keyof ApiEndpoints;\n');
  parts.push(`export type ErrorCode = ${ERROR_CODES.map((code) => `'${code}'`).join(' | ')};\n`);
  parts.push(await compile({ ...errorReplySchema, title: 'ApiErrorReply' } as JSONSchema, 'ApiErrorReply', options));
  return parts.join('\n');
}
