/**
 * `npm run outbox [-- <address>] [--last 5]`: the e-mails the server kept instead of
 * sending them (no SMTP_URL), newest last: confirmation codes and reset links on a laptop.
 * With DATABASE_URL it reads the outbox table; on the embedded database (one process: the
 * running server holds it) the copies in DATA_DIR/outbox.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/database.ts';
import { recentOutbox } from '../src/server/db/repositories/outbox-repository.ts';
import { outboxDirOf } from '../src/server/mail/mailer.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const { values, positionals } = parseArgs({ allowPositionals: true, options: { last: { type: 'string', default: '5' } } });
const recipient = positionals[0]?.toLowerCase();
const last = Number(values.last);
if (!Number.isInteger(last) || last < 1) {
  console.error('usage: npm run outbox -- [address] [--last 5]');
  process.exit(1);
}
const config = loadConfig();
const rule = '-'.repeat(60);
let mails: string[];
if (config.databaseUrl) {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    mails = (await recentOutbox(database.db, recipient, last)).map((mail) =>
      `To: ${mail.recipient}\nSubject: ${mail.subject}\nDate: ${mail.created_at.toISOString()}\n${Object.entries(mail.headers ?? {}).map(([header, value]) => `${header}: ${value}\n`).join('')}\n${mail.body}`);
  } finally {
    await database.close();
  }
} else {
  const dir = outboxDirOf({ ...config, smtpUrl: undefined }, 'pglite')!;
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.txt')).sort();
  const texts = await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')));
  mails = texts.filter((text) => !recipient || text.toLowerCase().startsWith(`to: ${recipient}\n`)).slice(-last).map((text) => text.trimEnd());
}
console.log(mails.length ? mails.map((mail) => `${rule}\n${mail}`).join('\n') + `\n${rule}` : `No mail in the outbox${recipient ? ` to ${recipient}` : ''}.`);
