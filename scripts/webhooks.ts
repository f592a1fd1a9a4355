/**
 * The office's webhook events, from the command line:
 *   npm run webhooks -- --replay <id> [--replay <id> ...]   send these events again
 *   npm run webhooks -- --since <time>                     send every event since then (ISO time, e.g. 2026-11-24T00:00Z);
 *                                                          submissions since then without an event get one first
 *   npm run webhooks -- --show <id>                        an event and each of its delivery attempts
 * A replay is queued on the job queue and sent by the servers (WEBHOOK_URL and WEBHOOK_SECRET
 * are theirs), with the event's own webhook-id and body: a receiver that has it drops it.
 * Uses DATABASE_URL, or the embedded database: through the server when one runs on DATA_DIR
 * (lib/data-access.ts; it sends them at once), else opened here (they go out when a server starts).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/server/config.ts';
import { openDataAccess } from './lib/data-access.ts';
import { keepFilesPrivate } from '../src/server/lib/private-files.ts';

// what this command writes (database files, exports) is the server's user's alone, as the server's own
keepFilesPrivate();

const USAGE = `usage: npm run webhooks -- --replay <id> [--replay <id> ...]
       npm run webhooks -- --since <ISO time>
       npm run webhooks -- --show <id>`;

const { values } = parseArgs({
  options: {
    replay: { type: 'string', multiple: true },
    since: { type: 'string' },
    show: { type: 'string' },
  },
});
const since = values.since === undefined ? undefined : new Date(values.since);
if ((!values.replay?.length && !since && !values.show) || (since && Number.isNaN(since.getTime()))) {
  console.error(USAGE);
  process.exit(1);
}

const config = loadConfig();
const data = await openDataAccess('npm run webhooks');
try {
  if (values.show) {
    const shown = await data.call('webhooks.show', { id: values.show });
    if (!shown) {
      console.error(`No event ${values.show}.`);
      process.exitCode = 1;
    } else {
      const { event, attempts } = shown;
      console.log(`${event.id} ${event.type}\n${event.body}`);
      for (const attempt of attempts) {
        console.log(`${attempt.attempted_at}  ${attempt.status_code ?? '---'}  ${attempt.duration_ms} ms${attempt.error ? `  ${attempt.error}` : ''}`);
      }
    }
  }
  if (values.replay?.length || since) {
    const { queued, made, unknown } = await data.call('webhooks.replay', { ...(values.replay ? { ids: values.replay } : {}), ...(since ? { since: since.toISOString() } : {}) });
    for (const id of unknown) console.error(`No event ${id}.`);
    console.log(`Queued ${queued.length} event${queued.length === 1 ? '' : 's'} for delivery${made ? ` (${made} made for submissions that had none)` : ''}: ${queued.join(' ') || '-'}`);
    if (!config.webhook) console.log('Note: WEBHOOK_URL and WEBHOOK_SECRET are not set here; the servers that send need them.');
    if (unknown.length) process.exitCode = 1;
  }
} finally {
  await data.close();
}
