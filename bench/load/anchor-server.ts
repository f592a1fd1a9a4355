/**
 * The bare anchor of the load benchmark: the least a server can do for a save,
 * on the same database as ours. Fastify, the session look-up our server makes (sessions
 * joined to applicants, by the cookie's SHA-256, expiry and idle limit checked), and the
 * same one-statement upsert of the save's 5-20 keys with the ordered-saves clock rule of
 * src/server/db/repositories/answer-repository.ts (a stamp believed at most a minute ahead,
 * a key written only if its change is at least as new), sent as named statements as ours
 * are, on both databases. Nothing else: no contract validation, no lock, no submitted
 * check, no logging, no security headers, no limits.
 *
 * Run as its own process by bench/load.ts, with the real server's environment:
 * PORT, HOST, DATABASE_URL (PostgreSQL) or DATA_DIR (PGlite, in this process).
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';
import { namedStatements } from '../../src/server/db/pglite-named-statements.ts';
import { sha256 } from '../../src/server/lib/secrets.ts';

type Query = (text: string, parameters: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const CLOCK_AHEAD_MS = 60_000;
const IDLE_MS = Number(process.env.INACTIVITY_TIMEOUT_MS ?? 900_000) + 2 * 60_000;

const names = new Map<string, string>();
const nameOf = (text: string) => names.get(text) ?? names.set(text, `anchor_${names.size + 1}`).get(text)!;

async function connect(): Promise<{ query: Query; close(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    // the pool our server opens (src/server/db/database.ts), and its statements named as
    // ours are (src/server/db/prepared-statement.ts): parsed and planned once per connection
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
    return { query: (text, parameters) => pool.query({ name: nameOf(text), text, values: parameters }), close: () => pool.end() };
  }
  // in this process (ours runs PGlite in a thread of its own), its statements named as ours are
  const pglite = await PGlite.create(join(process.env.DATA_DIR!, 'pgdata'));
  const run = namedStatements(pglite);
  return { query: (text, parameters) => run(nameOf(text), text, parameters), close: () => pglite.close() };
}

const database = await connect();
const app = Fastify({ bodyLimit: 256 * 1024 });

app.get('/healthz', async () => {
  await database.query('select 1', []);
  return { status: 'ok' };
});

app.put('/api/answer', async (request, reply) => {
  const id = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
  const session = id ? (await database.query(
    `select sessions.applicant_id, applicants.email, sessions.last_seen_at, sessions.expires_at
       from sessions inner join applicants on applicants.id = sessions.applicant_id where sessions.id_hash = $1`,
    [sha256(id)],
  )).rows[0] : undefined;
  const now = Date.now();
  if (!session || new Date(session.expires_at as string).getTime() <= now || new Date(session.last_seen_at as string).getTime() + IDLE_MS <= now) {
    return reply.status(401).send({ code: 'UNAUTHORIZED' });
  }
  const { _clock: clock = {}, ...answers } = request.body as Record<string, unknown> & { _clock?: Record<string, number> };
  const items = Object.entries(answers).map(([key, value]) => ({
    key, value, cleared: value === '', version: 1, changed_at: Math.min(clock[key] ?? now, now + CLOCK_AHEAD_MS),
  }));
  const written = await database.query(`
    insert into answers (applicant_id, key, value, schema_version, changed_at, updated_at)
    select $1::uuid, item.key, case when item.cleared then null else item.value end, item.version, item.changed_at, $3::timestamptz
    from jsonb_to_recordset($2::jsonb) as item(key text, value jsonb, cleared boolean, version integer, changed_at bigint)
    on conflict (applicant_id, key) do update
      set value = excluded.value, schema_version = excluded.schema_version, changed_at = excluded.changed_at, updated_at = excluded.updated_at
      where answers.changed_at <= excluded.changed_at
    returning 1`, [session.applicant_id, JSON.stringify(items), new Date(now)]);
  return { saved: written.rows.length };
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => database.close()).then(() => process.exit(0), () => process.exit(1));
  });
}
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
