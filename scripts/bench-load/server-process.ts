import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  /** the 6-digit code of the newest mail to `email` (mails are printed when SMTP_URL is unset) */
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
 * The real server as its own process, exactly as `npm start` runs it (node --import tsx
 * src/server/main.ts), so the load generator never shares its event loop. Without SMTP_URL
 * the server prints every mail on its console; the confirmation codes are read from there
 * (the same text the outbox table keeps, which the embedded database does not let another
 * process read while the server holds it).
 */
export async function startServerProcess(options: { dataDir: string; databaseUrl?: string; env?: Record<string, string>; nodeArgs?: string[] }): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    SMTP_URL: undefined,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/server/main.ts'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });

  const codes = new Map<string, string>();
  const waiters = new Map<string, (code: string) => void>();
  let pending = '';
  let exited: number | null | undefined;
  const log: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const block = /----- mail to (\S+) -----\n[\s\S]*?\n-----\n/g;
    let match: RegExpExecArray | null;
    let consumed = 0;
    while ((match = block.exec(pending))) {
      const code = /\b(\d{6})\b/.exec(match[0])?.[1];
      if (code) {
        const email = match[1]!.toLowerCase();
        codes.set(email, code);
        waiters.get(email)?.(code);
        waiters.delete(email);
      }
      consumed = block.lastIndex;
    }
    pending = pending.slice(consumed);
    if (pending.length > 100_000) pending = pending.slice(-10_000);
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
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited (${exited}) at start:\n${log.join('')}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start within 60 s:\n${log.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    codeFor(email, timeoutMs = 30_000) {
      const known = codes.get(email.toLowerCase());
      if (known) {
        codes.delete(email.toLowerCase());
        return Promise.resolve(known);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${email} within ${timeoutMs} ms`)), timeoutMs);
        waiters.set(email.toLowerCase(), (code) => {
          clearTimeout(timer);
          codes.delete(email.toLowerCase());
          resolve(code);
        });
      });
    },
    async stop() {
      if (exited !== undefined) return;
      child.kill('SIGTERM'); // main.ts closes the app (and PGlite) cleanly on SIGTERM
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exit;
      clearTimeout(timer);
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
