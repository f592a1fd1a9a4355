/**
 * Staff links to the read-only, printable view of one applicant (the service view):
 *   npm run service-link -- <email> [--minutes 60] [--by <name>]   make one (recorded)
 *   npm run service-link -- --list [--all]                        the links still valid (--all: expired and revoked too)
 *   npm run service-link -- --revoke <id> [--by <name>]           refuse it from now on, on every server
 * The token in a link is signed, read-only, for that applicant only, and expires; each link
 * is recorded with who made it (--by, else the OS user) and checked on every use. Uses
 * DATABASE_URL, or the embedded database: through the server when one runs on DATA_DIR
 * (lib/data-access.ts; its PUBLIC_URL is in the link), else opened here.
 */
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_LINK_MINUTES } from '../src/server/service-links/staff-links.ts';
import { openDataAccess } from './lib/data-access.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const USAGE = `usage: npm run service-link -- <applicant e-mail> [--minutes 60] [--by <name>]   (at most ${MAX_LINK_MINUTES} minutes)
       npm run service-link -- --list [--all]
       npm run service-link -- --revoke <id> [--by <name>]`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    minutes: { type: 'string', default: '60' },
    by: { type: 'string' },
    list: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
    revoke: { type: 'string' },
  },
});
const by = (values.by ?? userInfo().username).trim();
const minutes = Number(values.minutes);
const making = !values.list && values.revoke === undefined;
if (!by || by.length > 100 || (making && (positionals.length !== 1 || !Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_LINK_MINUTES))) {
  console.error(USAGE);
  process.exit(1);
}

const data = await openDataAccess('npm run service-link');
const when = (date: string) => date.replace(/\.\d+Z$/, 'Z');
try {
  if (values.list) {
    const rows = await data.call('service-link.list', { all: values.all });
    if (!rows.length) console.log(values.all ? 'No service links.' : 'No service links still valid (--all shows expired and revoked ones).');
    for (const row of rows) {
      const state = row.revoked_at ? `revoked ${when(row.revoked_at)} by ${row.revoked_by}` : Date.parse(row.expires_at) <= Date.now() ? 'expired' : 'valid';
      console.log(`${row.id}  ${row.email}  made ${when(row.created_at)} by ${row.made_by}  expires ${when(row.expires_at)}  ${state}`);
    }
  } else if (values.revoke !== undefined) {
    const result = await data.call('service-link.revoke', { id: values.revoke, by });
    if (!('link' in result)) {
      console.error(result.status === 'ambiguous' ? `More than one link starts with ${values.revoke}: give more of its id.` : `No service link ${values.revoke}.`);
      process.exitCode = 1;
    } else {
      const { link } = result;
      if (result.status === 'revoked') console.log(`Revoked: ${link.id} (${link.email}), refused by every server from now on.`);
      else console.log(`Already revoked ${when(link.revoked_at!)} by ${link.revoked_by}: ${link.id} (${link.email}), refused by every server.`);
    }
  } else {
    const link = await data.call('service-link.make', { email: positionals[0]!, by, minutes });
    if (!link) {
      console.error(`No applicant with the e-mail address ${positionals[0]}.`);
      process.exitCode = 1;
    } else {
      console.log(link.url);
      console.log(`(read-only; link ${link.id}, valid until ${when(link.expiresAt)}; revoke with npm run service-link -- --revoke ${link.id.slice(0, 8)})`);
    }
  }
} finally {
  await data.close();
}
