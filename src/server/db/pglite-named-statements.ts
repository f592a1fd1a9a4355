import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';

type Message = { name: string; dataTypeIDs?: number[] };

function joined(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

/**
 * Named statements on PGlite, as on PostgreSQL (src/server/db/prepared-statement.ts): the
 * SQL is parsed and described once, then each run is one Bind, Execute and Sync. PGlite's
 * own `query` parses, describes and binds again at every call, in five round trips into
 * WebAssembly (the save's statement alone, 12 keys, 0.94-1.18 ms a run by
 * `query` against 0.43-0.53 ms named). The values are serialised and the rows parsed
 * with PGlite's own serialisers and parsers, as `query` does.
 */
export function namedStatements(pglite: PGlite) {
  /** each parsed statement's parameter types, by name */
  const parameterTypes = new Map<string, number[]>();
  const { serialize } = protocol;

  /** Sends one batch ending in Sync; a database error among its answers is thrown once the batch is done. */
  const exchange = async (parts: Uint8Array[]) => {
    const { messages } = await pglite.execProtocol(joined([...parts, serialize.sync()]), { throwOnError: false });
    const error = messages.find((message) => message.name === 'error');
    if (error) throw error;
    return messages;
  };

  return async function run(name: string, sql: string, parameters: unknown[]): Promise<Results<Record<string, unknown>>> {
    return pglite.runExclusive(async () => {
      let types = parameterTypes.get(name);
      if (!types) {
        const described = await exchange([serialize.parse({ name, text: sql, types: [] }), serialize.describe({ type: 'S', name })]);
        types = (described as Message[]).find((message) => message.name === 'parameterDescription')?.dataTypeIDs ?? [];
        parameterTypes.set(name, types);
      }
      const values = parameters.map((value, index) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[types[index]!];
        return serializer ? serializer(value) : String(value);
      });
      const messages = await exchange([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({})]);
      return parse.parseResults(messages, pglite.parsers)[0] as Results<Record<string, unknown>>;
    });
  };
}
