import pg from 'pg';

/**
 * Samples what the server's PostgreSQL connections are doing, every 250 ms, to tell where
 * a save waits: "active" (PostgreSQL works, or waits for a lock or the disk), "idle in
 * transaction" (PostgreSQL waits for the Node.js server to send the next statement of a
 * transaction), "idle" (a free connection in the server's pool).
 */
export function samplePostgres(url: string): { stop(): Promise<string> } {
  const database = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  const counts = new Map<string, number>();
  let samples = 0;
  let busiest = 0;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ state: string; wait: string | null }>(
        `select state, wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()`, [database]);
      samples++;
      busiest = Math.max(busiest, rows.filter((row) => row.state !== 'idle').length);
      for (const row of rows) {
        const label = row.state === 'active' && row.wait ? `active, waiting ${row.wait}` : row.state;
        counts.set(label, (counts.get(label) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([label, count]) => `${label} ${(count / samples).toFixed(1)}`);
      return `connections on average: ${parts.join(', ')}; most not idle at once: ${busiest}`;
    },
  };
}
