import { fileURLToPath } from 'node:url';
import { endpointUrl } from '../../src/client/lib/api-client.ts';
import { MAX_SUGGESTIONS } from '../../src/client/features/lookups/api/lookup-api.ts';
import { createApplicants } from '../load/applicants.ts';
import { HttpClient } from '../load/http-client.ts';
import { startServerProcess } from '../load/server-process.ts';
import { percentile } from '../load/stats.ts';
import { WHOLE_NAME_KINDS, type Query } from './queries.ts';
import type { ServerTiming } from './timed-server.ts';

const timedServer = fileURLToPath(new URL('./timed-server.ts', import.meta.url));

/** The headers a browser of our own origin sends with the school search's fetch (src/client/lib/api-client.ts). */
const BROWSER_HEADERS = {
  accept: 'application/json',
  'accept-language': 'en-US,en;q=0.9',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  'sec-fetch-dest': 'empty',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
};

/** The round of the spelled-out whole names sent first, before the warm-up. */
const FIRST_AFTER_START = -2;

/** Look-ups per forwarded client address: under the route's 600 a minute. */
const REQUESTS_PER_ADDRESS = 500;

interface Sample {
  query: Query;
  /** 0 and up: the timed rounds; FIRST_AFTER_START: before any other look-up the server answered */
  round: number;
  ms: number;
  timing?: ServerTiming;
}

/**
 * Times GET /lookup/find over HTTP against the real server in its own process, on the data
 * already loaded in `dataDir` (PGlite) or `databaseUrl` (PostgreSQL): an applicant signs up,
 * confirms with the code from the server's mail and logs in; then each typed text is sent
 * one at a time, as the school search sends it (its address, query and headers, the session
 * cookie), on one kept-alive connection: first the 42 spelled-out whole names once each, the
 * first look-ups the server answers, then 20 texts to warm up, then the rounds. Twice: on the
 * server as `npm start` runs it, for the figures, and on the same app with clocks
 * (timed-server.ts), for where the time goes.
 */
export async function benchHttp(options: { dataDir: string; databaseUrl?: string | undefined; queries: Query[]; rounds: number }): Promise<void> {
  const plain = await timeOverHttp({ ...options, entry: undefined });
  printLatency('over HTTP (npm start\'s server, one request at a time)', plain);
  const timed = await timeOverHttp({ ...options, entry: timedServer });
  printLatency('over HTTP, the server with clocks (bench/lookup/timed-server.ts)', timed);
  printBreakdown(timed);
}

async function timeOverHttp(options: { dataDir: string; databaseUrl?: string | undefined; queries: Query[]; rounds: number; entry: string | undefined }): Promise<Sample[]> {
  // TRUST_PROXY: each round comes from its own forwarded address, as applicants behind a load
  // balancer do, so the 600-a-minute limit per address is not what is measured
  const server = await startServerProcess({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, entry: options.entry, env: { TRUST_PROXY: '1' } });
  const http = new HttpClient(server.url);
  try {
    const [applicant] = await createApplicants(http, server, 1, `lookup${Date.now()}`, 1);
    const cookie = applicant!.cookie;
    let sent = 0;
    const send = async (query: Query, round = -1): Promise<Sample> => {
      const address = `10.77.${Math.floor(sent++ / REQUESTS_PER_ADDRESS) % 250}.1`;
      const path = endpointUrl('findLookups', { query: { text: query.text.trim(), category: query.category, max_results: String(MAX_SUGGESTIONS) } });
      const exchange = await http.request('GET', path, { ...BROWSER_HEADERS, cookie, 'x-forwarded-for': address });
      if (exchange.status !== 200) throw new Error(`GET ${path} answered ${exchange.status} ${exchange.error ?? exchange.body}`);
      const header = exchange.headers['x-bench-timing'];
      return { query, round, ms: exchange.ms, ...(typeof header === 'string' ? { timing: JSON.parse(header) as ServerTiming } : {}) };
    };
    // the first look-ups a started server answers, as when applicants come to a server just
    // (re)started: the 42 spelled-out whole names, once each
    const samples: Sample[] = [];
    for (const query of options.queries.filter((query) => query.kind === WHOLE_NAME_KINDS[1])) samples.push(await send(query, FIRST_AFTER_START));
    for (const query of options.queries.slice(0, 20)) await send(query); // warm up
    for (let round = 0; round < options.rounds; round++) {
      for (const query of options.queries) samples.push(await send(query, round));
    }
    return samples;
  } finally {
    http.close();
    await server.stop();
  }
}

const fixed = (value: number) => value.toFixed(1).padStart(8);

function printLatency(title: string, samples: Sample[]): void {
  console.log(`  ${title}`);
  console.log(`    ${'typed texts'.padEnd(30)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`);
  const rounds = samples.filter((sample) => sample.round >= 0);
  const groups: [string, Sample[]][] = [
    ['school searches (hs_ceeb)', rounds.filter((sample) => sample.query.category === 'hs_ceeb')],
    ['  of which whole names', rounds.filter((sample) => WHOLE_NAME_KINDS.includes(sample.query.kind))],
    ['all look-ups', rounds],
    ['the first 42 after start', samples.filter((sample) => sample.round === FIRST_AFTER_START)],
  ];
  for (const [name, group] of groups) {
    const sorted = group.map((sample) => sample.ms).sort((a, b) => a - b);
    console.log(`    ${name.padEnd(30)} ${String(sorted.length).padStart(5)} ${fixed(percentile(sorted, 50))} ${fixed(percentile(sorted, 95))} ${fixed(percentile(sorted, 99))} ${fixed(sorted.at(-1)!)}`);
  }
  const slowest = rounds.reduce((worst, sample) => (sample.ms > worst.ms ? sample : worst));
  console.log(`    slowest: ${slowest.query.category} "${slowest.query.text}" ${slowest.ms.toFixed(1)} ms`);
}

/** Where a look-up's time goes: each part's p50, p95 and share of the total time of all requests. */
function printBreakdown(samples: Sample[]): void {
  const withTiming = samples.filter((sample): sample is Sample & { timing: ServerTiming } => sample.timing !== undefined);
  const timed = withTiming.filter((sample) => sample.round >= 0);
  if (timed.length === 0) return;
  const parts: [string, (sample: Sample & { timing: ServerTiming }) => number][] = [
    ['before the handler: pacing, hooks, rate limit, contract check', (s) => s.timing.handler - s.timing.sessionMs],
    ['session check (statements before the handler)', (s) => s.timing.sessionMs],
    ['database: the look-up\'s statements', (s) => s.timing.serviceDbMs],
    ['the service\'s own work (planning, ranking)', (s) => s.timing.serviceEnd - s.timing.serviceStart - s.timing.serviceDbMs],
    ['handler to reply serialised (onSend)', (s) => s.timing.sent - s.timing.serviceEnd],
    ['the rest: sending, loopback, the client', (s) => s.ms - s.timing.sent],
  ];
  const total = timed.reduce((sum, sample) => sum + sample.ms, 0);
  const statements = timed.map((sample) => sample.timing.serviceStatements);
  const sessionStatements = timed.map((sample) => sample.timing.sessionStatements);
  console.log(`  where the time goes (${timed.length} requests; statements per look-up: ${Math.min(...statements)}-${Math.max(...statements)}, ` +
    `mean ${(statements.reduce((a, b) => a + b, 0) / timed.length).toFixed(2)}; session check statements: ${Math.max(...sessionStatements)} at most)`);
  const cpuOf = (group: typeof timed) => {
    const cpu = group.map((sample) => sample.timing.cpuMs).sort((a, b) => a - b);
    return `p50 ${percentile(cpu, 50).toFixed(1)} ms, p95 ${percentile(cpu, 95).toFixed(1)} ms`;
  };
  const wholeNames = timed.filter((sample) => WHOLE_NAME_KINDS.includes(sample.query.kind));
  console.log(`    the server process's CPU time per look-up (all threads, arrival to reply): ${cpuOf(timed)}; whole names ${cpuOf(wholeNames)}; ` +
    `the first 42 after start ${cpuOf(withTiming.filter((sample) => sample.round === FIRST_AFTER_START))}`);
  console.log(`    ${'part'.padEnd(64)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'share'.padStart(7)}`);
  for (const [name, of] of parts) {
    const values = timed.map(of);
    const sorted = [...values].sort((a, b) => a - b);
    const share = (values.reduce((sum, value) => sum + value, 0) / total) * 100;
    console.log(`    ${name.padEnd(64)} ${fixed(percentile(sorted, 50))} ${fixed(percentile(sorted, 95))} ${`${share.toFixed(0)} %`.padStart(7)}`);
  }
}
