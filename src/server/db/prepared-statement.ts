import type { CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import type { Database } from './tables.ts';

/** The SQL texts of the prepared statements, each with its name. */
const statementNames = new Map<string, string>();

/** The name a prepared statement's SQL is sent under (PGlite's thread: src/server/db/pglite-named-statements.ts), or undefined. */
export function statementNameOf(sql: string): string | undefined {
  return statementNames.get(sql);
}

/**
 * Sends the prepared statements' SQL to PostgreSQL as named statements on this pooled
 * connection (`src/server/db/database.ts` calls it for each): PostgreSQL then parses and
 * plans each once per connection instead of at every save (1,490-1,650 saves/s
 * unnamed against 2,400-2,510 named, the save's two statements alone, 25 clients). Other
 * SQL goes on as it came. PGlite's pool passes the name to its thread (statementNameOf).
 */
export function nameStatementsOn(client: { query: (...args: never[]) => unknown }): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values, ...rest] = args;
    const name = typeof text === 'string' ? statementNames.get(text) : undefined;
    return name && Array.isArray(values) ? query({ name, text, values }, ...rest) : query(...args);
  }) as typeof client.query;
}

/**
 * Names an SQL text built at run time in one of a few shapes (the look-up's: which of its
 * tiers a typed text needs), so that each shape too is parsed once per connection. The
 * caller keeps the shapes few: a name, and its parsed statement on each connection, stay
 * for the life of the process.
 */
export function nameStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `prepared_${statementNames.size + 1}`);
}

/** A query builder, or a raw `sql` template (which compiles against the database). */
interface Buildable<Row> {
  compile(db: Kysely<Database>): CompiledQuery<Row>;
}

/** Stands for the statement's n-th value while it is compiled. */
class Placeholder {
  constructor(readonly index: number) {}
}

/**
 * A statement whose SQL text never changes, only its values: built with Kysely and compiled
 * once per database, then run with each call's values in their places. Building and
 * compiling the query tree again on every call was 3 % of the server's time in a
 * saturation of saves (the session look-up and the save run on every save).
 *
 * Every value must come in through `values`, and each must be a parameter of the SQL: a
 * value written inside `build`, or one made part of the SQL text, would be compiled once
 * and then sent with every call, so either is refused.
 */
export function preparedStatement<Values extends unknown[], Row>(
  build: (db: Kysely<Database>, ...values: Values) => Buildable<Row>,
): (db: Kysely<Database> | Transaction<Database>, ...values: Values) => Promise<QueryResult<Row>> {
  const compiled = new WeakMap<object, { query: CompiledQuery<Row>; positions: number[] }>();
  return (db, ...values) => {
    let prepared = compiled.get(db);
    if (!prepared) {
      const query = build(db, ...(values.map((_, index) => new Placeholder(index)) as Values)).compile(db);
      const positions = query.parameters.map((parameter) => {
        if (!(parameter instanceof Placeholder)) throw new Error(`a prepared statement's value is written in its SQL: ${query.sql}`);
        return parameter.index;
      });
      // a value that became part of the SQL text (a column's name) would be sent as it first was
      if (new Set(positions).size !== values.length) throw new Error(`a prepared statement's value is not one of its parameters: ${query.sql}`);
      prepared = { query, positions };
      nameStatement(query.sql);
      compiled.set(db, prepared);
    }
    return db.executeQuery({ ...prepared.query, parameters: prepared.positions.map((index) => values[index]) });
  };
}
