/**
 * Keys for the office's systems to call the office API (docs/operations/office-export-and-staff-links.md):
 *   npm run office-key -- create <name> [--by <name>]   make one; the key is printed once, only its hash is kept
 *   npm run office-key -- --list [--all]                the keys in use (--all: revoked ones too)
 *   npm run office-key -- --revoke <id> [--by <name>]   refuse it from now on, on every server
 * A key's name is recorded with every change it makes (`office:<name>`). Uses DATABASE_URL,
 * or the embedded database: through the server when one runs on DATA_DIR (lib/data-access.ts).
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';
import { openDataAccess } from './lib/data-access.ts';

keepFilesPrivate();

const USAGE = `usage: npm run office-key -- create <name> [--by <name>]
       npm run office-key -- --list [--all]
       npm run office-key -- --revoke <id> [--by <name>]   (the id or its first 8+ characters)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    by: { type: 'string' },
    list: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
    revoke: { type: 'string' },
  },
});
const by = (values.by ?? userInfo().username).trim();
const making = !values.list && values.revoke === undefined;
if (!by || by.length > 100 || (making && (positionals.length !== 2 || positionals[0] !== 'create'))) {
  console.error(USAGE);
  process.exit(1);
}

const data = await openDataAccess('npm run office-key');
const when = (date: string) => date.replace(/\.\d+Z$/, 'Z');
try {
  if (values.list) {
    const rows = await data.call('office-key.list', { all: values.all });
    if (!rows.length) console.log(values.all ? 'No office keys.' : 'No office keys in use (--all shows revoked ones).');
    for (const row of rows) {
      const used = row.last_used_at ? `last used ${when(row.last_used_at)}` : 'never used';
      const state = row.revoked_at ? `revoked ${when(row.revoked_at)} by ${row.revoked_by}` : 'valid';
      console.log(`${row.id}  ${row.name}  made ${when(row.created_at)} by ${row.made_by}  ${used}  ${state}`);
    }
  } else if (values.revoke !== undefined) {
    const result = await data.call('office-key.revoke', { id: values.revoke, by });
    if (!('key' in result)) {
      console.error(result.status === 'ambiguous' ? `More than one office key starts with ${values.revoke}: give more of its id.` : `No office key ${values.revoke} (give its id or its first 8 or more characters).`);
      process.exitCode = 1;
    } else if (result.status === 'revoked') {
      console.log(`Revoked: ${result.key.id} (${result.key.name}), refused by every server from now on.`);
    } else {
      console.log(`Already revoked ${when(result.key.revoked_at!)} by ${result.key.revoked_by}: ${result.key.id} (${result.key.name}).`);
    }
  } else {
    const made = await data.call('office-key.make', { name: positionals[1]!, by });
    console.log(made.key);
    console.log(`(office key ${made.id}, "${made.name}": shown this once, only its hash is kept; send it as "Authorization: Bearer <key>"; revoke with npm run office-key -- --revoke ${made.id.slice(0, 8)})`);
  }
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await data.close();
}
