/**
 * `npm run service-link -- <email> [--minutes 60]`: a link for admissions staff to the
 * read-only, printable view of one applicant (the service view). The token in it is
 * signed, read-only, for that applicant only, and expires. Uses DATABASE_URL or the
 * embedded database (stop `npm start` first on the embedded one).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { findApplicantByEmail } from '../src/server/db/repositories/applicant-repository.ts';
import { getOrCreateSecret } from '../src/server/db/repositories/secret-repository.ts';
import { randomToken } from '../src/server/lib/secrets.ts';
import { signServiceToken } from '../src/server/pdf/service-token.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { minutes: { type: 'string', default: '60' } } });
const email = positionals[0];
const minutes = Number(values.minutes);
if (!email || !Number.isFinite(minutes) || minutes <= 0 || minutes > 24 * 60) {
  console.error('usage: npm run service-link -- <applicant e-mail> [--minutes 60]   (at most 1440 minutes)');
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
try {
  const applicant = await findApplicantByEmail(database.db, email);
  if (!applicant) {
    console.error(`No applicant with the e-mail address ${email}.`);
    process.exitCode = 1;
  } else {
    const secret = await getOrCreateSecret(database.db, 'service-token-key', () => randomToken());
    const token = signServiceToken(secret, applicant.id, minutes * 60_000);
    console.log(`${config.publicUrl}/about?service_token=${encodeURIComponent(token)}`);
    console.log(`(read-only; valid for ${minutes} minutes)`);
  }
} finally {
  await database.close();
}
