import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks signature (https://www.standardwebhooks.com): HMAC-SHA256 with the
 * secret's bytes over `${id}.${timestamp}.${body}`, in base64, as "v1,<signature>". The
 * receiver checks it with the same secret, and the timestamp against replays.
 */
export function signWebhook(secret: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of one delivery attempt (the timestamp is the attempt's, as the spec asks). */
export function webhookHeaders(secret: Buffer, id: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
