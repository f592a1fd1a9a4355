import { sql, type Kysely } from 'kysely';

/**
 * A transaction that holds one of the database's connections (PGlite's only one, or a
 * pool's last) until `release()`; `done` settles when it has ended.
 */
export async function holdConnection<T>(db: Kysely<T>): Promise<{ release(): void; done: Promise<void> }> {
  let release!: () => void;
  let lent!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const inside = new Promise<void>((resolve) => (lent = resolve));
  const done = db.transaction().execute(async (tx) => {
    await sql`select 1`.execute(tx);
    lent();
    await held;
  });
  await inside;
  return { release, done };
}
