import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { namedStatements } from './pglite-named-statements.ts';
import type { PGliteRequest, PGliteReply } from './pglite-thread.ts';

/**
 * The embedded database's own thread (src/server/db/pglite-thread.ts starts it): PGlite
 * runs its statements here, synchronously in WebAssembly, so the HTTP event loop never
 * waits on one. Statements arrive one at a time; each reply carries its request's id.
 */
const port = parentPort!;
const { path, postgres } = workerData as { path: string | undefined; postgres: WebAssembly.Module };

/** A database error's fields (code, constraint, detail...) travel as plain data: a thrown object loses them when cloned. */
function plainError(error: unknown): { message: string; fields: Record<string, unknown> } {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    fields[name] = value;
  }
  return { message: error.message, fields: { ...fields, name: error.name } };
}

try {
  const pglite = await PGlite.create(path, { pgliteWasmModule: postgres });
  const runNamed = namedStatements(pglite);
  port.on('message', (request: PGliteRequest) => {
    const answer = async (): Promise<PGliteReply> => {
      if (request.close) {
        await pglite.close();
        return { id: request.id, rows: [], affectedRows: 0 };
      }
      const result = request.name
        ? await runNamed(request.name, request.sql, request.parameters)
        : await pglite.query<Record<string, unknown>>(request.sql, request.parameters);
      return { id: request.id, rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    };
    answer().then((reply) => port.postMessage(reply), (error: unknown) => port.postMessage({ id: request.id, error: plainError(error) }));
  });
  port.postMessage({ id: 0, rows: [], affectedRows: 0 } satisfies PGliteReply);
} catch (error) {
  port.postMessage({ id: 0, error: plainError(error) } satisfies PGliteReply);
}
