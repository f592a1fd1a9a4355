/**
 * `npm run prefill-link -- --answers '{"first_name":"Ada","hs_name":"Central High"}'`
 * stores prefilled answers for a prospect and prints the link to e-mail them
 * (/about?token=..., read by GET /public/tmp). Uses DATABASE_URL or the embedded database.
 */
import { parseArgs } from 'node:util';
import prefill from '../schemas/prefill.json';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { insertPrefill } from '../src/server/db/repositories/prefill-repository.ts';
import { randomToken, sha256 } from '../src/server/lib/secrets.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const { values } = parseArgs({ options: { answers: { type: 'string' } } });
const answers = JSON.parse(values.answers ?? '{}') as Record<string, unknown>;
const refused = Object.keys(answers).filter((key) => !prefill.allowed_keys.includes(key) || typeof answers[key] !== 'string');
if (refused.length || !Object.keys(answers).length) {
  console.error(`Give --answers as a JSON object of text answers; allowed keys: ${prefill.allowed_keys.join(', ')}${refused.length ? `\nrefused: ${refused.join(', ')}` : ''}`);
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const token = randomToken();
await insertPrefill(database.db, sha256(token), answers as Record<string, string>, new Date(Date.now() + prefill.valid_days * 86_400_000));
await database.close();
console.log(`${config.publicUrl}/about?token=${token}`);
