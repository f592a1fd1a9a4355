/**
 * The real server (src/server/main.ts's app, from buildApp) with clocks on one request at a
 * time, for bench/lookup.ts: each answer carries an `x-bench-timing` header (JSON) saying
 * where its time went on the server. Run as its own process by bench/lookup/http-path.ts,
 * with the server's environment (PORT, HOST, DATA_DIR or DATABASE_URL).
 *
 *   arrived   the HTTP server's `request` event (headers read), before the request pacing
 *   handler   the route's handler starts: pacing, hooks, rate limit, contract check done
 *   service   app.lookups.find, and within it the statements it sent
 *   sent      the onSend hook: the reply is serialised
 * and the process's CPU time over the same span (all its threads), which a busy machine
 * does not stretch as it stretches the wall-clock parts.
 * A statement is timed in the server's thread, from the call to its rows: on PGlite the trip
 * through the database thread and the wait for its one connection, on PostgreSQL the pool's
 * client query. Statements before the handler are the session check (none for a public route).
 * The bench sends one request at a time, so one record is under way at once.
 */
import pg from 'pg';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { PGliteThread } from '../../src/server/db/pglite-thread.ts';

export interface ServerTiming {
  /** ms from `arrived` */
  handler: number;
  serviceStart: number;
  serviceEnd: number;
  sent: number;
  /** statements before the handler: count and ms */
  sessionStatements: number;
  sessionMs: number;
  /** statements during the service: count and ms */
  serviceStatements: number;
  serviceDbMs: number;
  /** CPU time of the whole server process (its threads, PGlite's among them) from `arrived` to `sent`: what contention does not stretch */
  cpuMs: number;
}

interface Record {
  arrived: number;
  cpu: NodeJS.CpuUsage;
  phase: 'before' | 'service' | 'after';
  timing: ServerTiming;
}

let current: Record | undefined;

function timed<A extends unknown[], R>(original: (...args: A) => Promise<R>) {
  return function (this: unknown, ...args: A): Promise<R> {
    const record = current;
    const started = performance.now();
    const result = original.apply(this, args);
    if (!record || typeof (result as { then?: unknown })?.then !== 'function') return result;
    return result.finally(() => {
      const ms = performance.now() - started;
      if (record.phase === 'before') {
        record.timing.sessionStatements++;
        record.timing.sessionMs += ms;
      } else if (record.phase === 'service') {
        record.timing.serviceStatements++;
        record.timing.serviceDbMs += ms;
      }
    });
  };
}

PGliteThread.prototype.query = timed(PGliteThread.prototype.query);
// a pooled client's query with a callback returns nothing: timed() passes it through untimed
pg.Client.prototype.query = timed(pg.Client.prototype.query as (...args: unknown[]) => Promise<unknown>) as typeof pg.Client.prototype.query;

const config = loadConfig();
const app = await buildApp(config);

app.server.prependListener('request', () => {
  current = {
    arrived: performance.now(), cpu: process.cpuUsage(), phase: 'before',
    timing: { handler: 0, serviceStart: 0, serviceEnd: 0, sent: 0, sessionStatements: 0, sessionMs: 0, serviceStatements: 0, serviceDbMs: 0, cpuMs: 0 },
  };
});
const since = (record: Record) => performance.now() - record.arrived;
app.addHook('preHandler', async () => {
  if (current) current.timing.handler = since(current);
});
const find = app.lookups.find.bind(app.lookups);
app.lookups.find = async (query) => {
  const record = current;
  if (!record) return find(query);
  record.timing.serviceStart = since(record);
  record.phase = 'service';
  try {
    return await find(query);
  } finally {
    record.phase = 'after';
    record.timing.serviceEnd = since(record);
  }
};
app.addHook('onSend', async (_request, reply, payload) => {
  if (current) {
    current.timing.sent = since(current);
    const cpu = process.cpuUsage(current.cpu);
    current.timing.cpuMs = (cpu.user + cpu.system) / 1000;
    reply.header('x-bench-timing', JSON.stringify(current.timing));
  }
  return payload;
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}
await app.listen({ port: config.port, host: config.host });
