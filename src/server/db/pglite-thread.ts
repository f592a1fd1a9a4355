import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { siblingEntry } from '../lib/sibling-entry.ts';

export interface PGliteRequest {
  id: number;
  sql: string;
  parameters: unknown[];
  /** a prepared statement's name (src/server/db/prepared-statement.ts): the thread parses it once */
  name?: string | undefined;
  close?: true;
}

export type PGliteReply =
  | { id: number; rows: Record<string, unknown>[]; affectedRows: number; error?: undefined }
  | { id: number; error: { message: string; fields: Record<string, unknown> } };

export interface PGliteResult {
  rows: Record<string, unknown>[];
  affectedRows: number;
}

/** Loading tsx and PGlite, and a new cluster's initdb, can take seconds on a busy machine. */
const START_TIMEOUT_MS = 120_000;

let compiledPostgres: Promise<WebAssembly.Module> | undefined;

/**
 * PGlite's Postgres (9 MB of WebAssembly), compiled once per process and handed to each thread
 * that opens a database: compiling it was about half of a thread's start (0.9 s of CPU to a
 * ready database against 0.45 s with the module given), paid again by every database a
 * process opens (the tests open hundreds in a few processes).
 */
function postgresModule(): Promise<WebAssembly.Module> {
  compiledPostgres ??= readFile(new URL('./pglite.wasm', pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite'))))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error: unknown) => {
      compiledPostgres = undefined; // tried again by the next open
      throw error;
    });
  return compiledPostgres;
}

/**
 * The embedded PGlite database in a worker thread of its own (src/server/db/pglite-worker.ts):
 * its statements run there, so a busy database never holds up the HTTP event loop (PGlite in
 * the server's thread stalled every request under load). Statements cross as
 * structured clones (dates, JSON values and bytes survive); a database error comes back
 * with its fields (code, constraint, detail).
 */
export class PGliteThread {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(result: PGliteResult): void; reject(error: Error): void }>();
  private failure: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: PGliteReply) => this.answered(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the PGlite thread ended (exit code ${code})`)));
    // an idle database thread does not keep the process alive; one with statements under way does
    worker.unref();
  }

  /** Opens PGlite at `path` (undefined: in memory) in a new thread; fails as PGlite.create would. */
  static async open(path: string | undefined): Promise<PGliteThread> {
    const sibling = siblingEntry(import.meta.url, 'pglite-worker');
    // a thread does not inherit the tsx loader: from the sources, a plain module loads it first
    const entry = sibling.typescript ? new URL('./pglite-worker-boot.mjs', import.meta.url) : sibling.url;
    const worker = new Worker(entry, { workerData: { path, postgres: await postgresModule() } });
    const thread = new PGliteThread(worker);
    worker.ref();
    const timer = setTimeout(() => thread.fail(new Error(`PGlite did not open within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    try {
      await new Promise<PGliteResult>((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    } catch (error) {
      await worker.terminate();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return thread;
  }

  query(sql: string, parameters: unknown[], name?: string): Promise<PGliteResult> {
    return this.send({ id: this.nextId++, sql, parameters, name });
  }

  /** Closes PGlite cleanly (its files stay consistent), then ends the thread. */
  async close(): Promise<void> {
    if (this.failure) return;
    await this.send({ id: this.nextId++, sql: '', parameters: [], close: true });
    this.failure = new Error('the embedded database is closed');
    await this.worker.terminate();
  }

  private send(request: PGliteRequest): Promise<PGliteResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  private answered(reply: PGliteReply): void {
    const waiter = this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.error) waiter.reject(Object.assign(new Error(reply.error.message), reply.error.fields));
    else waiter.resolve(reply);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }
}
