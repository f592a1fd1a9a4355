/**
 * npm run schema:impact -- <git revision> [--format text|json] [--no-database]
 *
 * What the working schema files change against a revision's, in staff's words, and,
 * with a database (DATABASE_URL, or the embedded one in DATA_DIR), how many applications
 * in progress and submitted hold answers the change orphans or invalidates, naming up to
 * ten. Beside a server running on the embedded database it reads the answers through the
 * server's admin channel, as the office's other commands do (scripts/lib/data-access.ts).
 * Exit 1 when a change can orphan or invalidate saved answers and its page's "version"
 * was not raised, so CI stops it before it reaches applicants; 2 on bad usage.
 *
 * On a fresh clone it first makes the generated form the server's modules read
 * (scripts/ensure-generated.mjs), as `npm start` does.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

execFileSync(process.execPath, [join(import.meta.dirname, 'ensure-generated.mjs')], { stdio: ['ignore', process.stderr, 'inherit'] });
await import('./schema-impact/report.ts');
