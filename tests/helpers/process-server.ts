import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { seedEmbeddedDatabase } from '../../support/pglite-template.ts';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { countUnit } from '../../support/test-units.ts';
import { until } from '../../support/until.ts';
import { builtCommand } from './built-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

/**
 * The real server as a separate process (`node dist/server/main.js`), as `npm start`
 * runs it: a test can SIGKILL it mid-request and start it again on the same
 * port, data directory and database. HttpSession talks to it over real HTTP.
 */
export interface ProcessServerOptions {
  /** PostgreSQL; unset: embedded PGlite in dataDir */
  databaseUrl?: string | undefined;
  /** kept across restarts; default: a new temporary folder, removed by close() */
  dataDir?: string;
  /** more environment: JOB_LOCK_MS, SOFFICE_PATH, SMTP_URL, ... */
  env?: Record<string, string>;
  /** how long a start may take until the server answers HTTP (default 60 s) */
  readyTimeoutMs?: number;
  /** the project to run (default: this one; a test may run a copy with changed schemas) */
  root?: string;
}

export class ProcessServer {
  readonly dataDir: string;
  port = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** stdout and stderr of every run, in order */
  output = '';
  /** processes the server had started (converters) when it was last killed or stopped */
  private orphans: number[] = [];
  private readonly ownDataDir: boolean;

  constructor(private readonly options: ProcessServerOptions = {}) {
    this.ownDataDir = !options.dataDir;
    this.dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'admission-process-'));
    if (this.ownDataDir && !options.databaseUrl) seedEmbeddedDatabase(this.dataDir);
  }

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  get running(): boolean {
    return this.pid !== undefined;
  }

  /** Starts the server (the first time on a free port, later on the same one) and waits until it answers. */
  async start(): Promise<void> {
    if (this.running) throw new Error('the server is already running');
    for (let attempt = 0; ; attempt++) {
      if (!this.port || attempt > 0) this.port = await freePort();
      try {
        await this.spawnAndWait();
        return;
      } catch (error) {
        // another process took the port between our probe and the server's listen
        if (attempt < 2 && /EADDRINUSE/.test(this.output)) continue;
        throw error;
      }
    }
  }

  /** Starts it again on the same port, data directory and database (after kill() or stop()). */
  async restart(): Promise<void> {
    if (this.running) throw new Error('the server is still running');
    await this.spawnAndWait();
  }

  private async spawnAndWait(): Promise<void> {
    countUnit('server process');
    const child = spawn(process.execPath, builtCommand('main'), {
      cwd: this.options.root ?? ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        PUBLIC_URL: `http://localhost:${this.port}`,
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT_PER_IP: '1000',
        // every test client connects from this machine's one address
        MAX_CONNECTIONS_PER_ADDRESS: '1000',
        // every test applicant signs up from this machine: a network's mail limit is its own test's
        MAIL_PER_NETWORK_PER_HOUR: '1000',
        ...(this.options.databaseUrl ? { DATABASE_URL: this.options.databaseUrl } : { DATABASE_URL: '' }),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.setEncoding('utf8').on('data', (text: string) => { this.output += text; });
    child.stderr!.setEncoding('utf8').on('data', (text: string) => { this.output += text; });
    this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it answered:\n${this.output.slice(-4000)}`);
      }
      try {
        await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) });
        return; // any answer: it listens (healthz says 503 while its database is away)
      } catch {
        await sleep(100);
      }
    }
    child.kill('SIGKILL');
    throw new Error(`the server did not answer within ${this.options.readyTimeoutMs ?? 60_000} ms:\n${this.output.slice(-4000)}`);
  }

  /** Kills the server at once (SIGKILL: no close hooks, no clean shutdown) and waits until it is gone. */
  async kill(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    this.orphans = descendantsOf(pid);
    process.kill(pid, 'SIGKILL');
    await this.exited;
  }

  /** Stops the server as an operator would (SIGTERM: it closes cleanly); SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    this.orphans = descendantsOf(pid);
    process.kill(pid, 'SIGTERM');
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(timer);
  }

  /** Processes the server had started (LibreOffice, its bridge, Chromium) that still run after it was killed or stopped. */
  leftoverProcesses(): { pid: number; command: string }[] {
    // what they started meanwhile counts too (LibreOffice's launcher starts soffice.bin)
    const alive = this.orphans.filter(isAlive);
    this.orphans = [...new Set([...alive, ...alive.flatMap(descendantsOf)])];
    return this.orphans.filter(isAlive).map((pid) => ({ pid, command: commandOf(pid) }));
  }

  /** The processes the running server has started (converters), with their command lines. */
  children(): { pid: number; command: string }[] {
    const pid = this.pid;
    return pid === undefined ? [] : descendantsOf(pid).map((child) => ({ pid: child, command: commandOf(child) }));
  }

  /**
   * Mails the server kept (no SMTP_URL: never printed, kept in the outbox table and, on the
   * embedded database, as files in DATA_DIR/outbox, as `npm run outbox` reads them), oldest first.
   */
  async mails(to: string): Promise<{ subject: string; text: string }[]> {
    if (this.options.databaseUrl) {
      const client = new pg.Client({ connectionString: this.options.databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ subject: string; body: string }>('select subject, body from outbox where lower(recipient) = lower($1) order by created_at', [to]);
        return rows.map((row) => ({ subject: row.subject, text: row.body }));
      } catch {
        return []; // not migrated yet
      } finally {
        await client.end();
      }
    }
    const dir = join(this.dataDir, 'outbox');
    const names = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.txt')).sort() : [];
    return names.map((name) => /^To: (\S+)\nSubject: ([^\n]*)\n\n([\s\S]*)\n$/.exec(readFileSync(join(dir, name), 'utf8')))
      .filter((match) => match !== null && match[1]!.toLowerCase() === to.toLowerCase())
      .map((match) => ({ subject: match![2]!, text: match![3]! }));
  }

  /** The newest confirmation code mailed to `to`, waiting for it up to `timeoutMs`. */
  async confirmationCode(to: string, timeoutMs = 10_000): Promise<string> {
    return until(async () => (await this.mails(to)).map((mail) => /\b(\d{6})\b/.exec(mail.text)?.[1]).filter(Boolean).at(-1), `a confirmation code mailed to ${to}`, timeoutMs);
  }

  /** Stops the server if it runs, ends what it left behind, removes its temporary data directory. */
  async close(): Promise<void> {
    await this.stop();
    for (let round = 0; round < 5; round++) {
      const leftovers = this.leftoverProcesses();
      if (!leftovers.length) break;
      for (const { pid } of leftovers) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      await sleep(100);
    }
    if (this.ownDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export async function startProcessServer(options: ProcessServerOptions = {}): Promise<ProcessServer> {
  const server = new ProcessServer(options);
  try {
    await server.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}

export interface HttpResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  /** how long the answer took */
  ms: number;
}

/**
 * A browser-like client of a server over real HTTP: keeps its cookies, sends
 * Sec-Fetch-Site: same-origin and JSON. A request that gets no answer (connection
 * refused or reset, or no answer within timeoutMs) rejects.
 */
export class HttpSession {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: () => string, private readonly timeoutMs = 15_000) {}

  async request<T = Record<string, unknown>>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<HttpResponse<T>> {
    const started = Date.now();
    const response = await fetch(`${this.base()}${path}`, {
      method,
      headers: {
        'sec-fetch-site': 'same-origin',
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } : {}),
        ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
      },
      ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    this.keepCookies(response.headers.getSetCookie());
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the raw text stays
    }
    return { status: response.status, body: parsed as T, ms: Date.now() - started };
  }

  get = <T = Record<string, unknown>>(path: string) => this.request<T>('GET', path);
  post = <T = Record<string, unknown>>(path: string, body?: unknown) => this.request<T>('POST', path, body);
  put = <T = Record<string, unknown>>(path: string, body?: unknown) => this.request<T>('PUT', path, body);

  /** A presigned upload, as the browser posts it (multipart, no cookie needed). */
  async upload(presigned: { url: string; fields: Record<string, string> }, fileName: string, bytes: Uint8Array): Promise<number> {
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
    const response = await fetch(`${this.base()}/uploads`, { method: 'POST', body: form, signal: AbortSignal.timeout(this.timeoutMs) });
    await response.arrayBuffer();
    return response.status;
  }

  private keepCookies(lines: string[]): void {
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      if (at < 1) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      const expired = attributes.some((attribute) => {
        const [key = '', raw = ''] = attribute.split('=');
        if (key.toLowerCase() === 'max-age') return Number(raw) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(raw).getTime() < Date.now();
        return false;
      });
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** Signs up, confirms with the mailed code (read from its outbox) and logs in over HTTP. */
export async function confirmedApplicantOverHttp(server: ProcessServer, email: string, password = 'Maple-Harbor-2031!'): Promise<HttpSession> {
  const session = new HttpSession(() => server.url);
  const signup = await session.post('/public/signup', { username: email, password });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const confirm = await session.post('/public/confirm', { username: email, code: await server.confirmationCode(email) });
  if (confirm.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirm.body)}`);
  const login = await session.post('/public/login', { username: email, password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return session;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    }).on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Every process below `root` (children, grandchildren, ...), read from /proc (Linux). */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(parent) ?? [];
      list.push(Number(entry));
      children.set(parent, list);
    } catch {
      // ended while we looked
    }
  }
  const found: number[] = [];
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      found.push(child);
      stack.push(child);
    }
  }
  return found;
}

/** Running (not a zombie waiting to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}
