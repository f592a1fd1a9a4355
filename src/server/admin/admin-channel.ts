import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The office's commands reach the server that owns DATA_DIR's embedded database through a
 * Unix socket in DATA_DIR: no port, so nothing on the network (nor the public listener)
 * can reach it, and only the server's user can open it (the folder is 0700, the socket
 * 0600). Every request must also carry the token the server writes to DATA_DIR/admin.token
 * (0600) as it opens the channel: a new one each start, removed as it stops.
 *
 * One request: POST /operations/<name> with the operation's arguments as a JSON object;
 * the answer is {"result": ...}, or {"error": "..."} with 400 (bad arguments), 401, 404 or 500.
 */
export const ADMIN_SOCKET = 'admin.sock';
export const ADMIN_TOKEN = 'admin.token';

/** Longest Unix socket path the system takes (108 bytes on Linux, 104 on macOS, with the final NUL). */
export const MAX_SOCKET_PATH_BYTES = 103;

/** Enough for the largest look-up list's rows (the sample's 3.4 MB of high schools is about 13 MB of rows). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function adminSocketPath(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET);
}

export function adminSocketPathFits(dataDir: string): boolean {
  return Buffer.byteLength(adminSocketPath(dataDir)) <= MAX_SOCKET_PATH_BYTES;
}

/** An operation's outcome: its JSON-able result, or a refusal the caller reads. */
export type OperationOutcome = { result: unknown } | { status: 400 | 404; error: string };

export interface AdminChannel {
  close(): Promise<void>;
}

class RequestTooLarge extends Error {}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RequestTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/**
 * Opens the channel. The caller holds DATA_DIR's lock, so a socket or token file already
 * there is a killed server's leftover and is replaced.
 */
export async function openAdminChannel(options: {
  dataDir: string;
  run: (name: string, args: Record<string, unknown>) => Promise<OperationOutcome>;
  log: FastifyBaseLogger;
}): Promise<AdminChannel> {
  const { dataDir, run, log } = options;
  const socketPath = adminSocketPath(dataDir);
  const tokenPath = join(dataDir, ADMIN_TOKEN);
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);

  const authorized = (request: IncomingMessage) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const server = createServer((request, response) => {
    void (async () => {
      if (!authorized(request)) return answer(response, 401, { error: 'not authorized' });
      const name = /^\/operations\/([a-z.-]+)$/.exec(request.url ?? '')?.[1];
      if (request.method !== 'POST' || !name) return answer(response, 404, { error: 'no such operation' });
      let args: unknown;
      try {
        args = JSON.parse(await bodyOf(request));
      } catch (error) {
        if (error instanceof RequestTooLarge) return answer(response, 413, { error: 'the request is too large' });
        return answer(response, 400, { error: 'the arguments must be a JSON object' });
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return answer(response, 400, { error: 'the arguments must be a JSON object' });
      log.info({ operation: name }, 'admin channel: an office command');
      const outcome = await run(name, args as Record<string, unknown>);
      if ('error' in outcome) return answer(response, outcome.status, { error: outcome.error });
      answer(response, 200, { result: outcome.result });
    })().catch((error: Error) => {
      log.error({ err: error }, 'admin channel: an office command failed');
      if (!response.headersSent) answer(response, 500, { error: error.message });
      else response.destroy();
    });
  });
  // a command waits as long as its work takes (an export of thousands of applications)
  server.requestTimeout = 0;
  server.setTimeout(0);

  await rm(socketPath, { force: true });
  await rm(tokenPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await chmod(socketPath, 0o600);
  // written after the socket listens: a command that finds the token finds the server
  await writeFile(tokenPath, `${token}\n`, { mode: 0o600, flag: 'wx' });

  return {
    async close() {
      // the token first: a command arriving now waits for the lock instead
      await rm(tokenPath, { force: true });
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await rm(socketPath, { force: true });
    },
  };
}
