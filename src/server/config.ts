import { resolve } from 'node:path';

/** Server configuration, read once from the environment (README "Configuration"). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  inactivityTimeoutMs: number;
  chromiumPath: string | undefined;
  sofficePath: string | undefined;
  /** proxies whose X-Forwarded-For is believed: a hop count or a list of addresses/CIDRs; false: none */
  trustProxy: number | string[] | false;
  /** Per client address, per account route, per minute. */
  authRateLimitPerIp: number;
  clientDir: string;
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
    throw new Error(`${name} must be a URL, not "${raw}"`);
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
  if (!/^https?:\/\//.test(target)) throw new Error(`WEBHOOK_URL must be an http(s) address, not "${target}"`);
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

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL'),
    publicUrl: url(env, 'PUBLIC_URL') ?? `http://localhost:${port}`,
    smtpUrl: url(env, 'SMTP_URL'),
    mailFrom: env.MAIL_FROM || 'Admissions <no-reply@localhost>',
    inactivityTimeoutMs: integer(env, 'INACTIVITY_TIMEOUT_MS', 900_000, 1000),
    chromiumPath: env.CHROMIUM_PATH || undefined,
    sofficePath: env.SOFFICE_PATH || undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    authRateLimitPerIp: integer(env, 'AUTH_RATE_LIMIT_PER_IP', 60, 1),
    clientDir: resolve(env.CLIENT_DIR || './dist/client'),
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
  };
}

/** True when the public address is https: cookies get Secure and the __Host- prefix, HSTS is sent. */
export function isHttps(config: Config): boolean {
  return config.publicUrl.startsWith('https://');
}
