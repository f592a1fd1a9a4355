import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { confirmationCodeOf, startSmtpReceiver } from '../../support/smtp-receiver.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));

/** A start on a busy machine (PGlite opening a large database) can take a minute or more. */
const START_TIMEOUT_MS = 180_000;

export interface ServerProcess {
  url: string;
  pid: number;
  /** the 6-digit code of the oldest mail to `email` not yet read (the server sends it by SMTP to this process) */
  codeFor(email: string, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The real server as its own process, exactly as `npm start` runs it (node dist/server/main.js,
 * built by the bench's npm script), so the load generator never shares its event loop. A
 * TypeScript entry (a bench's own anchor or wrapper) runs through tsx. Its mail goes by
 * real SMTP to a receiver in this process (smtp-server), where the confirmation codes are read.
 */
export async function startServerProcess(options: {
  dataDir: string; databaseUrl?: string | undefined; env?: Record<string, string>; nodeArgs?: string[];
  /** the server's entry point (the bench's bare anchor passes its own) */
  entry?: string;
}): Promise<ServerProcess> {
  const port = await freePort();
  const smtp = await startSmtpReceiver();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'warn',
    // the bench's simulated applicants all connect from this machine's one address
    MAX_CONNECTIONS_PER_ADDRESS: '4096',
    MAIL_PER_NETWORK_PER_HOUR: '100000',
    ...options.env,
  };
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  const entry = options.entry ?? 'dist/server/main.js';
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--enable-source-maps', ...loader, entry], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });

  let exited: number | null | undefined;
  const log: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    log.push(chunk);
    if (log.length > 200) log.shift();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    log.push(chunk);
    if (log.length > 200) log.shift();
  });
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => {
    exited = code;
    resolve();
  }));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (${exited}) at start:\n${log.join('')}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL'); // nothing of it may go on writing in DATA_DIR
      await exit;
      await smtp.close();
      throw new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s:\n${log.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    codeFor: async (email, timeoutMs = 30_000) => confirmationCodeOf(await smtp.waitFor(email, undefined, timeoutMs)),
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM'); // main.ts closes the app (and PGlite) cleanly on SIGTERM
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exit;
      clearTimeout(timer);
      await smtp.close();
    },
  };
}

/** Busy and total CPU time of the whole machine, from /proc/stat. */
export function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Other work on the machine skews every figure: says how busy it was, over 3 s, before a run. */
export async function reportBackgroundLoad(whenBusy: string): Promise<void> {
  const before = machineCpu();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = machineCpu();
  if (!before || !after) return;
  const busy = Math.round(((after.busy - before.busy) / (after.total - before.total)) * 100);
  console.log(`machine busy before the run (3 s, ${cpus().length} cores): ${busy}%${busy > 15 ? ` - ${whenBusy}` : ''}`);
}
