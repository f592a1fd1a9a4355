import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { redactAddress } from './lib/redact.ts';

/** Server configuration, read once from the environment (docs/operations/configuration.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** seals the server's secrets in the database (SECRETS_KEY); unset: a key file in DATA_DIR */
  secretsKey: Buffer | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  inactivityTimeoutMs: number;
  chromiumPath: string | undefined;
  sofficePath: string | undefined;
  /** proxies whose X-Forwarded-For is believed: a hop count or a list of addresses/CIDRs; false: none */
  trustProxy: number | string[] | false;
  /** Per client network, per account route, per minute. */
  authRateLimitPerIp: number;
  /** requests per minute one office key may make to the office API (per server) */
  officeRateLimitPerKey: number;
  /**
   * The IPv4 prefix one client is counted by (NETWORK_PREFIX_V4, 32: each address), for the
   * connection shares, the rate limits, the mail limits and the converters' turns; IPv6 is
   * always counted by its /64 (lib/client-network.ts).
   */
  networkPrefixV4: number;
  /** sign-ups, resends and forgot-password calls one client network may make an hour (MAIL_PER_NETWORK_PER_HOUR) */
  mailPerNetworkPerHour: number;
  clientDir: string;
  /** the server's drawing of the form pages (src/server/render/): its build, workers per language (0: none), and how long a page may wait for it */
  pageDrawing: { dir: string; workersPerLanguage: number; timeoutMs: number };
  logLevel: string;
  /** a running job's lock; a job whose server died is taken again after it lapses */
  jobLockMs: number;
  /** the pause before a failed job's first retry; later retries wait 5 and 15 times as long */
  jobRetryDelayMs: number;
  /** longest a single document conversion may take */
  conversionTimeoutMs: number;
  /** longest a warm LibreOffice may take to start */
  converterStartTimeoutMs: number;
  /**
   * Convert Word files even where LibreOffice cannot get a network namespace of its own and
   * would run with the server's network (CONVERTER_ALLOW_HOST_NETWORK); false: Word conversion is off there
   */
  converterAllowHostNetwork: boolean;
  /** the most address space LibreOffice may take, in MB (CONVERTER_MEMORY_MB) */
  converterMemoryMb: number;
  /** false: this instance serves requests only and leaves jobs to others */
  runJobs: boolean;
  /** bytes of uploads and their converted PDFs one applicant may keep (UPLOAD_QUOTA_BYTES) */
  uploadQuotaBytes: number;
  /** a request carrying it in X-Health-Token sees /healthz's details from anywhere (HEALTH_TOKEN); unset: loopback only */
  healthToken: string | undefined;
  /** object storage on S3 (or an S3-compatible server) instead of DATA_DIR/objects; set by S3_BUCKET */
  s3: S3Config | undefined;
  /** where submitted applications are announced, signed per Standard Webhooks; WEBHOOK_URL and WEBHOOK_SECRET */
  webhook: WebhookConfig | undefined;
  /** how long each phase of a connection may last, and how many connections one address may hold */
  connections: ConnectionLimits;
}

/**
 * A client that sends a byte now and then must not hold a socket (and with it a file
 * descriptor the database needs) for ever: every phase has an end, every address a share.
 */
export interface ConnectionLimits {
  /** the request line and headers must all arrive within it (HEADERS_TIMEOUT_MS) */
  headersTimeoutMs: number;
  /** a request's body must have arrived this long after its headers (REQUEST_TIMEOUT_MS) */
  requestTimeoutMs: number;
  /** the same for an upload's body (POST /uploads), which may take a while on a slow link (UPLOAD_TIMEOUT_MS) */
  uploadTimeoutMs: number;
  /** a kept-alive connection with no request under way is closed after it (KEEP_ALIVE_TIMEOUT_MS) */
  keepAliveTimeoutMs: number;
  /** a connection on which no byte moves either way is closed after it (SOCKET_IDLE_TIMEOUT_MS) */
  idleTimeoutMs: number;
  /** open connections one client network (lib/client-network.ts) may hold at once (MAX_CONNECTIONS_PER_ADDRESS) */
  perNetwork: number;
  /** open connections of all clients together (MAX_CONNECTIONS) */
  total: number;
  /** an upload's body must bring at least this many bytes a second (MIN_UPLOAD_BYTES_PER_SECOND)... */
  minUploadBytesPerSecond: number;
  /** ...in every window of this length (UPLOAD_RATE_WINDOW_MS) */
  uploadRateWindowMs: number;
}

export interface WebhookConfig {
  url: string;
  /** the key: the base64 part of WEBHOOK_SECRET after `whsec_`, decoded */
  secret: Buffer;
  /** how long one attempt waits for the receiver's answer (WEBHOOK_TIMEOUT_MS) */
  timeoutMs: number;
}

export interface S3Config {
  bucket: string;
  /** an S3-compatible server's address; unset: AWS */
  endpoint: string | undefined;
  region: string;
  /** unset: the SDK's default credential chain (environment, profile, instance role) */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be a whole number of at least ${min}, not "${raw}"`);
  }
  return value;
}

/**
 * TRUST_PROXY: how many proxies stand in front ('1' behind one load balancer), or the
 * proxies' own addresses ('10.0.0.5,10.0.1.0/24'). Never "trust every hop": then a client
 * writes its own address into X-Forwarded-For and the per-address limits are void.
 */
export function trustProxy(raw: string | undefined): number | string[] | false {
  if (!raw || raw === '0') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'true' || raw === '*') throw new Error('TRUST_PROXY must be a hop count (1 behind one load balancer) or the proxies\' addresses, never "trust all"');
  const list = raw.split(',').map((item) => item.trim()).filter(Boolean);
  const address = /^[0-9a-f.:]+(\/\d{1,3})?$/i;
  const bad = list.find((item) => !address.test(item));
  if (bad) throw new Error(`TRUST_PROXY must be a hop count or a list of addresses (CIDR allowed), not "${bad}"`);
  return list;
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (!['true', 'false', '1', '0'].includes(raw)) throw new Error(`${name} must be true or false, not "${raw}"`);
  return raw === 'true' || raw === '1';
}

function url(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    // a password in a mistyped address is not repeated to the log
    throw new Error(`${name} must be a URL, not "${redactAddress(raw)}"`);
  }
}

function s3Config(env: Env): S3Config | undefined {
  const bucket = env.S3_BUCKET;
  if (!bucket) return undefined;
  const endpoint = url(env, 'S3_ENDPOINT');
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both or neither');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && !['true', 'false', '1', '0'].includes(pathStyle)) throw new Error(`S3_FORCE_PATH_STYLE must be true or false, not "${pathStyle}"`);
  return {
    bucket,
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    // S3-compatible servers mostly want path-style addresses (http://host/bucket/key)
    forcePathStyle: pathStyle ? pathStyle === 'true' || pathStyle === '1' : endpoint !== undefined,
  };
}

/**
 * WEBHOOK_URL and WEBHOOK_SECRET go together. The secret is Standard Webhooks' form:
 * `whsec_` and 24 to 64 random bytes in base64 (the receiver holds the same string).
 */
export function webhookConfig(env: Env): WebhookConfig | undefined {
  const target = url(env, 'WEBHOOK_URL');
  const raw = env.WEBHOOK_SECRET || undefined;
  if (!target !== !raw) throw new Error('WEBHOOK_URL and WEBHOOK_SECRET go together: set both or neither');
  if (!target || !raw) return undefined;
  if (!/^https?:\/\//.test(target)) throw new Error(`WEBHOOK_URL must be an http(s) address, not "${redactAddress(target)}"`);
  // fetch refuses such an address, so every delivery would fail, and each attempt's error
  // would carry the password into the log and the database: the receiver checks the signature instead
  const { username, password } = new URL(target);
  if (username || password) throw new Error('WEBHOOK_URL must not carry a user name or password (user:password@): the receiver authenticates the server by the signature made with WEBHOOK_SECRET');
  const base64 = raw.startsWith('whsec_') ? raw.slice('whsec_'.length) : '';
  const secret = Buffer.from(base64, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || secret.length < 24 || secret.length > 64) {
    throw new Error('WEBHOOK_SECRET must be "whsec_" and 24 to 64 random bytes in base64, e.g. whsec_$(openssl rand -base64 32)');
  }
  const timeoutMs = integer(env, 'WEBHOOK_TIMEOUT_MS', 15_000, 100);
  // a timer longer than this fires at once in Node: every attempt would end before it began
  if (timeoutMs > 2_147_483_647) throw new Error(`WEBHOOK_TIMEOUT_MS must be at most 2147483647 (about 24 days), not "${env.WEBHOOK_TIMEOUT_MS}"`);
  return { url: target, secret, timeoutMs };
}

/** The process's soft limit of open files (Linux), or undefined where it cannot be read. */
function openFilesLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((text) => text.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Defaults fit for a public form: a browser opens up to six connections, and a school's or
 * a campus's applicants may share one address, hence up to 64 per network. All clients
 * together keep at most half the process's open-file limit (RLIMIT_NOFILE, as the process
 * really has it), so the database, uploads and converters always have descriptors left (229
 * held sockets under a limit of 256 once took the database down); one network at most an
 * eighth of that (64 of 512 under systemd's default limit of 1,024). An upload must bring 1 KB
 * a second over every 10 s (8 kbit/s; the largest upload at the upload timeout's pace needs 3.5).
 */
export function connectionLimits(env: Env, openFiles = openFilesLimit()): ConnectionLimits {
  const headersTimeoutMs = integer(env, 'HEADERS_TIMEOUT_MS', 20_000, 100);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 60_000, 100);
  // 1 MB (the largest upload) at about 28 kbit/s, a poor mobile link
  const uploadTimeoutMs = integer(env, 'UPLOAD_TIMEOUT_MS', 300_000, 100);
  // longer than a load balancer's usual 60 s idle time, so the balancer closes first
  const keepAliveTimeoutMs = integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100);
  const idleTimeoutMs = integer(env, 'SOCKET_IDLE_TIMEOUT_MS', 120_000, 100);
  const total = integer(env, 'MAX_CONNECTIONS', openFiles ? Math.max(16, Math.min(4096, Math.floor(openFiles / 2))) : 512, 1);
  const perNetwork = integer(env, 'MAX_CONNECTIONS_PER_ADDRESS', Math.max(2, Math.min(64, Math.floor(total / 8))), 1);
  const minUploadBytesPerSecond = integer(env, 'MIN_UPLOAD_BYTES_PER_SECOND', 1000, 0);
  const uploadRateWindowMs = integer(env, 'UPLOAD_RATE_WINDOW_MS', 10_000, 100);
  const longest = 2_147_483_647;
  for (const [name, value] of Object.entries({ HEADERS_TIMEOUT_MS: headersTimeoutMs, REQUEST_TIMEOUT_MS: requestTimeoutMs, UPLOAD_TIMEOUT_MS: uploadTimeoutMs, KEEP_ALIVE_TIMEOUT_MS: keepAliveTimeoutMs, SOCKET_IDLE_TIMEOUT_MS: idleTimeoutMs })) {
    if (value > longest) throw new Error(`${name} must be at most ${longest} (about 24 days), not "${value}"`);
  }
  if (uploadTimeoutMs < requestTimeoutMs) throw new Error(`UPLOAD_TIMEOUT_MS (${uploadTimeoutMs}) must be at least REQUEST_TIMEOUT_MS (${requestTimeoutMs}): an upload is the longest request`);
  return { headersTimeoutMs, requestTimeoutMs, uploadTimeoutMs, keepAliveTimeoutMs, idleTimeoutMs, perNetwork, total, minUploadBytesPerSecond, uploadRateWindowMs };
}

/** SECRETS_KEY: 32 random bytes in base64, the same on every server of one database. */
function secretsKey(raw: string | undefined): Buffer | undefined {
  if (!raw) return undefined;
  const key = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || key.length !== 32) {
    throw new Error('SECRETS_KEY must be 32 random bytes in base64, e.g. $(openssl rand -base64 32)');
  }
  return key;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL'),
    secretsKey: secretsKey(env.SECRETS_KEY),
    publicUrl: url(env, 'PUBLIC_URL') ?? `http://localhost:${port}`,
    smtpUrl: url(env, 'SMTP_URL'),
    mailFrom: env.MAIL_FROM || 'Admissions <no-reply@localhost>',
    inactivityTimeoutMs: integer(env, 'INACTIVITY_TIMEOUT_MS', 900_000, 1000),
    chromiumPath: env.CHROMIUM_PATH || undefined,
    sofficePath: env.SOFFICE_PATH || undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    authRateLimitPerIp: integer(env, 'AUTH_RATE_LIMIT_PER_IP', 60, 1),
    officeRateLimitPerKey: integer(env, 'OFFICE_RATE_LIMIT_PER_KEY', 600, 1),
    networkPrefixV4: Math.min(32, integer(env, 'NETWORK_PREFIX_V4', 32, 8)),
    mailPerNetworkPerHour: integer(env, 'MAIL_PER_NETWORK_PER_HOUR', 60, 1),
    clientDir: resolve(env.CLIENT_DIR || './dist/client'),
    pageDrawing: {
      // beside the client build it draws the pages of (scripts/build-client.ts)
      dir: resolve(env.SSR_DIR || resolve(env.CLIENT_DIR || './dist/client', '..', 'ssr')),
      workersPerLanguage: integer(env, 'RENDER_WORKERS', 1, 0),
      timeoutMs: integer(env, 'RENDER_TIMEOUT_MS', 2000, 50),
    },
    logLevel: env.LOG_LEVEL || 'info',
    jobLockMs: integer(env, 'JOB_LOCK_MS', 60_000, 1000),
    jobRetryDelayMs: integer(env, 'JOB_RETRY_DELAY_MS', 2000, 0),
    conversionTimeoutMs: integer(env, 'CONVERSION_TIMEOUT_MS', 30_000, 1000),
    converterStartTimeoutMs: integer(env, 'CONVERTER_START_TIMEOUT_MS', 30_000, 1000),
    converterAllowHostNetwork: flag(env, 'CONVERTER_ALLOW_HOST_NETWORK'),
    converterMemoryMb: integer(env, 'CONVERTER_MEMORY_MB', 2048, 1024),
    runJobs: env.RUN_JOBS !== 'false' && env.RUN_JOBS !== '0',
    uploadQuotaBytes: integer(env, 'UPLOAD_QUOTA_BYTES', 25 * 1024 * 1024, 1024 * 1024),
    healthToken: env.HEALTH_TOKEN || undefined,
    s3: s3Config(env),
    webhook: webhookConfig(env),
    connections: connectionLimits(env),
  };
}

/** True when the public address is https: cookies get Secure and the __Host- prefix, HSTS is sent. */
export function isHttps(config: Config): boolean {
  return config.publicUrl.startsWith('https://');
}
