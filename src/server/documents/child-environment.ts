/**
 * The environment of a process that handles a stranger's file (the untrusted file workers,
 * LibreOffice and its bridge): only what it needs to run, named here one by one. The
 * server's own environment holds DATABASE_URL, SMTP_URL, S3 keys and the webhook secret; a
 * file that takes over such a process must find none of them.
 */
const PASSED = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ'] as const;

export function childEnvironment(own: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin' };
  for (const name of PASSED) if (process.env[name]) env[name] = process.env[name];
  return { ...env, ...own };
}
