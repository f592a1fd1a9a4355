import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { ADMIN_TOKEN, adminSocketPath, adminSocketPathFits } from '../../src/server/admin/admin-channel.ts';
import {
  runDataOperation, type DataContext, type DataOperationName, type DataOperationResult,
} from '../../src/server/admin/data-operations.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/database.ts';
import { DataDirInUse } from '../../src/server/lib/data-dir-lock.ts';
import { createSecretStore } from '../../src/server/lib/secret-store.ts';
import { loadSecretsKey } from '../../src/server/lib/secrets-key.ts';
import { randomToken } from '../../src/server/lib/secrets.ts';
import { createLocalStorage, localStorageRoot } from '../../src/server/storage/local-storage.ts';
import type { ObjectStorage } from '../../src/server/storage/object-storage.ts';

/**
 * How an office command reaches the application's data. With DATABASE_URL it connects to
 * PostgreSQL itself, beside any number of servers. On the embedded database only one
 * process may have DATA_DIR open (src/server/lib/data-dir-lock.ts): a running server
 * runs the command's operations on its admin channel, so the office can work while
 * applicants apply; with no server the command opens the database itself, holding the
 * lock, and a server started meanwhile refuses to start until it is done. Another command
 * holding it: refused at once, with who holds it.
 */
export interface DataAccess {
  call<Name extends DataOperationName>(name: Name, args: Record<string, unknown>): Promise<DataOperationResult<Name>>;
  close(): Promise<void>;
}

/** Longest wait for a server that holds DATA_DIR but has not opened its channel yet (starting, or stopping). */
const SERVER_WAIT_MS = 120_000;

type Reply = { status: number; body: { result?: unknown; error?: string } };

/** One operation on the running server's admin channel; undefined when no server answers there (nothing was run). */
async function askServer(dataDir: string, name: string, args: Record<string, unknown>): Promise<Reply | undefined> {
  let token: string;
  try {
    token = (await readFile(join(dataDir, ADMIN_TOKEN), 'utf8')).trim();
  } catch {
    return undefined;
  }
  const payload = JSON.stringify(args);
  const reply = await new Promise<Reply | undefined>((resolve, reject) => {
    const outgoing = request({
      socketPath: adminSocketPath(dataDir), path: `/operations/${name}`, method: 'POST', agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        try {
          resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['body'] });
        } catch {
          reject(new Error(`the server's admin channel gave no readable answer (HTTP ${incoming.statusCode})`));
        }
      });
      incoming.on('error', reject);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      // no one listens on the socket (a killed server's leftover, or one starting or stopping)
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(undefined);
      else reject(new Error(`the server's admin channel failed: ${error.message}`));
    });
    outgoing.end(payload);
  });
  // a token from another start of the server: nothing was run; look again
  return reply?.status === 401 ? undefined : reply;
}

function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

function directContext(handle: DatabaseHandle, config: Config): DataContext {
  let storage: Promise<ObjectStorage> | undefined;
  const makeStorage = async (): Promise<ObjectStorage> => {
    if (config.s3) {
      const { createS3Storage } = await import('../../src/server/storage/s3-storage.ts');
      return createS3Storage(config.s3);
    }
    const secret = await createSecretStore(handle.db, await loadSecretsKey(config)).get('upload-policy-key', () => randomToken());
    return createLocalStorage({ root: localStorageRoot(config.dataDir), uploadUrl: () => `${config.publicUrl}/uploads`, secret });
  };
  return { db: handle.db, config, documentStorage: () => (storage ??= makeStorage()) };
}

/** The data as this command may reach it; `command` names it to whoever finds DATA_DIR locked (`npm run service-link`). */
export async function openDataAccess(command: string): Promise<DataAccess> {
  const config = loadConfig();
  let handle: DatabaseHandle | undefined;
  let context: DataContext | undefined;
  const openDirect = async () => {
    handle = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, holder: { role: 'command', name: command } });
    context = directContext(handle, config);
  };
  if (config.databaseUrl) await openDirect();

  const call = async <Name extends DataOperationName>(name: Name, args: Record<string, unknown>): Promise<DataOperationResult<Name>> => {
    const deadline = Date.now() + SERVER_WAIT_MS;
    let told = false;
    for (;;) {
      if (context) return runDataOperation(context, name, args);
      const reply = await askServer(config.dataDir, name, args);
      if (reply) {
        if (reply.status === 200) return reply.body.result as DataOperationResult<Name>;
        throw new Error(reply.body.error ?? `the server refused (HTTP ${reply.status})`);
      }
      try {
        await openDirect();
        continue;
      } catch (error) {
        if (!(error instanceof DataDirInUse)) throw error;
        if (error.holder.role !== 'server') refuse(error.message);
        if (!adminSocketPathFits(config.dataDir)) {
          refuse(`${error.message}\nIts admin channel cannot open: DATA_DIR's path is too long for a socket. Stop the server to run this command, or give it a shorter DATA_DIR.`);
        }
        if (Date.now() > deadline) {
          refuse(`${error.message}\nIt does not answer on its admin channel (${adminSocketPath(config.dataDir)}); stop it, then run this command again.`);
        }
        if (!told) {
          console.error(`Waiting for ${error.holder.name} (pid ${error.holder.pid}), which has the embedded database open, to open its admin channel...`);
          told = true;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  return { call, close: async () => handle?.close() };
}
