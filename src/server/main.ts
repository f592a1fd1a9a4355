import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { DataDirInUse } from './lib/data-dir-lock.ts';
import { keepFilesPrivate } from './lib/private-files.ts';

/** Starts the server: `npm start` (embedded database) or with DATABASE_URL (PostgreSQL). */
// whatever the server or its converters write is the server's user's alone (docs/security.md, "Data at rest")
keepFilesPrivate();
const config = loadConfig();
const app = await buildApp(config).catch((error: unknown) => {
  // another server (or an office command) has this DATA_DIR's embedded database open: say who, start nothing
  const inUse = error instanceof DataDirInUse ? error : (error as { cause?: unknown } | null)?.cause;
  if (!(inUse instanceof DataDirInUse)) throw error;
  console.error(`\n  Not started: ${inUse.message}\n`);
  process.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info(`${signal}: closing`);
    // PGlite must be closed cleanly to keep its files consistent
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

await app.listen({ port: config.port, host: config.host });
const database = app.dbKind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
console.log(`\n  Admission application running at ${config.publicUrl}  (database: ${database}; Node.js ${process.version})\n`);
if (!config.smtpUrl) console.log('  E-mails are not sent (SMTP_URL is not set): they are kept in the outbox table. Read them with `npm run outbox`.\n');
