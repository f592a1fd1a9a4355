import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/tables.ts';
import { findSuggestions } from '../../src/server/lookups/find-lookups.ts';
import { percentile } from '../load/stats.ts';
import { WHOLE_NAME_KINDS, type Query } from './queries.ts';

interface Plan {
  'Planning Time': number;
  'Execution Time': number;
}

/**
 * The floor under a search: its one statement alone, as the database plans and runs it
 * (EXPLAIN ANALYZE's planning and execution time, the second of two runs), without the trip
 * to the database, the driver or the ranking. The statement is the one findSuggestions sends,
 * caught on its way out.
 */
export async function printStatementFloor(db: Kysely<Database>, queries: Query[]): Promise<void> {
  const caught: CompiledQuery[] = [];
  const send = db.executeQuery.bind(db);
  const catcher = db as unknown as { executeQuery: (query: CompiledQuery) => Promise<{ rows: unknown[] }> };
  const floors = new Map<string, number[]>();
  for (const query of queries.filter((each) => each.category === 'hs_ceeb')) {
    caught.length = 0;
    catcher.executeQuery = async (compiled) => {
      caught.push(compiled);
      return { rows: [] };
    };
    try {
      await findSuggestions(db, query.category, query.text, 5);
    } finally {
      catcher.executeQuery = send as typeof catcher.executeQuery;
    }
    const statement = caught[0]!;
    let plan: Plan | undefined;
    for (let run = 0; run < 2; run++) {
      const { rows } = await send(CompiledQuery.raw(`explain (analyze, format json) ${statement.sql}`, [...statement.parameters]));
      plan = (rows[0] as { 'QUERY PLAN': Plan[] })['QUERY PLAN'][0];
    }
    const ms = plan!['Planning Time'] + plan!['Execution Time'];
    const group = WHOLE_NAME_KINDS.includes(query.kind) ? 'whole names' : 'typed texts';
    for (const name of [group, 'school searches']) floors.set(name, [...(floors.get(name) ?? []), ms]);
  }
  console.log('  the statement alone (EXPLAIN ANALYZE: planning + execution, second run):');
  for (const [name, values] of floors) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(`    ${name.padEnd(30)} ${String(sorted.length).padStart(5)} p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms`);
  }
}
