/**
 * `npm run prefill-link -- --answers '{"first_name":"Ada","hs_name":"Central High"}'`
 * stores prefilled answers for a prospect and prints the link to e-mail them
 * (/about?token=..., read by GET /public/tmp). Uses DATABASE_URL, or the embedded database:
 * through the server when one runs on DATA_DIR (lib/data-access.ts), else opened here.
 */
import { parseArgs } from 'node:util';
import prefill from '../schemas/prefill.json';
import { openDataAccess } from './lib/data-access.ts';
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
const data = await openDataAccess('npm run prefill-link');
try {
  console.log((await data.call('prefill.create', { answers })).url);
} finally {
  await data.close();
}
