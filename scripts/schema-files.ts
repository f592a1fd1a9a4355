import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Reads the schema files staff edit. Used by the generators and the schema check. */
export const schemasDir = resolve(import.meta.dirname, '..', 'schemas');

/** The directory read: SCHEMAS_DIR when set (read at call time, so the schema check's tests can point at a copy), else schemas/. */
export function currentSchemasDir(): string {
  return process.env.SCHEMAS_DIR ? resolve(process.env.SCHEMAS_DIR) : schemasDir;
}

export function readJson<T = unknown>(relativePath: string): T {
  const path = join(currentSchemasDir(), relativePath);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw new Error(`schemas/${relativePath}: not valid JSON (${(error as Error).message})`);
  }
}

export function listJson(relativeDir: string): string[] {
  return readdirSync(join(currentSchemasDir(), relativeDir))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => `${relativeDir}/${name}`);
}

export interface AuthFormFile {
  version: number;
  title: string;
  schema: { $id: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** The account forms: every schemas/auth/*.json that carries a `schema`. */
export function authForms(): { name: string; file: AuthFormFile }[] {
  return listJson('auth')
    .map((path) => ({ name: path.slice('auth/'.length, -'.json'.length), file: readJson<AuthFormFile>(path) }))
    .filter(({ file }) => typeof file.schema === 'object');
}
