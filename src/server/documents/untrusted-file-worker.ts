import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { childEnvironment } from './child-environment.ts';
import { FileRefusal, type RefusalReason } from './file-refusal.ts';
import type { UntrustedFileTasks } from './untrusted-file-tasks.ts';
import { siblingEntry } from '../lib/sibling-entry.ts';

export type TaskName = keyof UntrustedFileTasks;
export interface TaskRequest {
  id: number;
  task: TaskName;
  args: unknown[];
}
export interface TaskReply {
  id: number;
  result?: unknown;
  error?: { message: string; reason?: RefusalReason | undefined };
}
/** What a worker process says once it has loaded and listens for tasks. */
export const READY = 'ready';

/** A task that went past the worker's time or memory limit: its process was killed. */
export class WorkerLimitError extends Error {
  constructor(readonly limit: 'time' | 'memory', message: string) {
    super(message);
  }
}

interface Pending {
  request: TaskRequest;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess;
  /** loaded and listening: a task is sent, and its time counted, from then on */
  ready: boolean;
  startTimer: NodeJS.Timeout | undefined;
  /** settles once the process is ready, or has died trying */
  started: Promise<void>;
  markStarted: () => void;
  task: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  memoryWatch: NodeJS.Timeout | undefined;
  /** the end of what the process wrote to stderr: how it died (V8's "heap out of memory") */
  stderr: string;
  exited: Promise<void>;
}

/** Only a TypeScript entry needs it: run built (dist/server), the server starts plain JavaScript. */
const tsxLoader = () => pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const MEMORY_POLL_MS = 50;
/** Loading tsx and pdf-lib takes a fraction of a second, a few seconds on a busy machine. */
const START_TIMEOUT_MS = 60_000;
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

/** Resident memory of a process in MB, from /proc (undefined where there is none). */
function residentMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Parses and decodes uploaded files in separate, warm Node processes (untrusted-file-process.ts),
 * never on the server's event loop: a hostile file costs a worker, not the server. Each
 * process runs one task at a time, under a heap limit (--max-old-space-size), a limit on
 * its whole resident memory (zlib and buffers live outside the heap; watched from here) and
 * a time limit. A process that passes a limit is killed and its task fails with
 * WorkerLimitError; a process that dies fails its task; the tasks queued behind go to a new
 * process. Idle processes stay warm for the next file.
 */
export class UntrustedFileWorker {
  private readonly slots: (Slot | undefined)[];
  private readonly queue: Pending[] = [];
  private next = 0;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly heapMb: number;
  private readonly memoryMb: number;
  private readonly entry: string;

  constructor(options: { processes?: number; timeoutMs?: number; heapMb?: number; memoryMb?: number; entry?: string | URL } = {}) {
    this.slots = Array.from({ length: options.processes ?? 2 });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.heapMb = options.heapMb ?? 256;
    this.memoryMb = options.memoryMb ?? 768;
    const entry = options.entry ?? siblingEntry(import.meta.url, 'untrusted-file-process').url;
    this.entry = entry instanceof URL ? fileURLToPath(entry) : entry;
  }

  /** Runs a task (untrusted-file-tasks.ts) in a worker process. */
  run<T extends TaskName>(task: T, ...args: Parameters<UntrustedFileTasks[T]>): Promise<Awaited<ReturnType<UntrustedFileTasks[T]>>> {
    if (this.closed) return Promise.reject(new Error('untrusted file worker closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.next++, task, args }, resolve: resolve as (result: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Starts up to `count` processes of the pool ahead of the files, resolving once they are ready. */
  async warm(count = this.slots.length): Promise<void> {
    if (this.closed) return;
    const slots = this.slots.map((slot, index) => slot ?? (index < count ? (this.slots[index] = this.spawn()) : undefined));
    await Promise.all(slots.filter((slot) => slot !== undefined).map((slot) => slot.started));
  }

  private dispatch(): void {
    // a warm idle process first, then a new one in a free place
    while (this.queue.length) {
      const idle = this.slots.find((slot) => slot && !slot.task);
      const free = idle ? -1 : this.slots.findIndex((slot) => !slot);
      if (!idle && free < 0) return;
      const slot = idle ?? (this.slots[free] = this.spawn());
      this.assign(slot, this.queue.shift()!);
    }
  }

  private spawn(): Slot {
    const child = fork(this.entry, [], {
      execArgv: [`--max-old-space-size=${this.heapMb}`, ...(this.entry.endsWith('.ts') ? ['--import', tsxLoader()] : [])],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: childEnvironment(), // none of the server's secrets: the process works on a stranger's bytes
    });
    let markStarted = () => {};
    const slot: Slot = {
      child, ready: false, startTimer: undefined, started: new Promise((done) => (markStarted = done)), markStarted,
      task: undefined, timer: undefined, memoryWatch: undefined, stderr: '',
      exited: new Promise((done) => {
        child.once('exit', () => done());
        child.once('error', () => done());
      }),
    };
    void slot.exited.then(markStarted);
    child.unref();
    child.channel?.unref();
    (child.stderr as unknown as { unref?(): void } | null)?.unref?.();
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      slot.stderr = (slot.stderr + text).slice(-4000);
    });
    child.on('message', (reply: TaskReply | typeof READY) => (reply === READY ? this.started(slot) : this.answered(slot, reply)));
    child.on('exit', (code, signal) => this.exited(slot, code, signal));
    child.on('error', (error) => this.failed(slot, error));
    slot.startTimer = setTimeout(() => this.failed(slot, new Error(`untrusted file worker did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    slot.startTimer.unref();
    return slot;
  }

  private started(slot: Slot): void {
    clearTimeout(slot.startTimer);
    slot.ready = true;
    slot.markStarted();
    if (slot.task) this.send(slot, slot.task);
  }

  private assign(slot: Slot, task: Pending): void {
    slot.task = task;
    slot.child.channel?.ref(); // an answer is awaited
    if (slot.ready) this.send(slot, task);
  }

  /** Sends a task to a ready process and starts counting its time and memory. */
  private send(slot: Slot, task: Pending): void {
    slot.timer = setTimeout(() => this.stop(slot, new WorkerLimitError('time', `the file took longer than ${this.timeoutMs} ms`)), this.timeoutMs);
    slot.timer.unref();
    slot.memoryWatch = setInterval(() => {
      const used = slot.child.pid === undefined ? undefined : residentMb(slot.child.pid);
      if (used !== undefined && used > this.memoryMb) this.stop(slot, new WorkerLimitError('memory', `the file took more than ${this.memoryMb} MB`));
    }, MEMORY_POLL_MS);
    slot.memoryWatch.unref();
    slot.child.send(task.request, (error) => {
      if (error) this.failed(slot, error);
    });
  }

  /** Ends the slot's task, if any, and hands back its result or error. */
  private finish(slot: Slot, settle: (task: Pending) => void): void {
    clearTimeout(slot.startTimer);
    clearTimeout(slot.timer);
    clearInterval(slot.memoryWatch);
    const task = slot.task;
    slot.task = undefined;
    slot.child.channel?.unref();
    if (task) settle(task);
  }

  private answered(slot: Slot, reply: TaskReply): void {
    if (slot.task?.request.id !== reply.id) return;
    this.finish(slot, (task) => {
      if (!reply.error) task.resolve(reply.result);
      else task.reject(reply.error.reason ? new FileRefusal(reply.error.reason, reply.error.message) : new Error(reply.error.message));
    });
    this.dispatch();
  }

  /** Past a limit: the process is killed, its task fails, the queue goes on in a new one. */
  private stop(slot: Slot, error: Error): void {
    this.forget(slot);
    slot.child.kill('SIGKILL');
    this.finish(slot, (task) => task.reject(error));
    this.dispatch();
  }

  private exited(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    if (!this.forget(slot)) return; // stopped on purpose
    this.finish(slot, (task) => task.reject(OUT_OF_MEMORY.test(slot.stderr)
      ? new WorkerLimitError('memory', `the file took more than the worker's ${this.heapMb} MB heap`)
      : new Error(`untrusted file worker stopped (${signal ?? `exit code ${code}`}): ${slot.stderr.trim().split('\n').slice(-3).join(' ')}`)));
    this.dispatch();
  }

  private failed(slot: Slot, error: Error): void {
    if (!this.forget(slot)) return;
    slot.child.kill('SIGKILL');
    this.finish(slot, (task) => task.reject(error));
    this.dispatch();
  }

  /** Takes the slot's process out of the pool; false when it was out already. */
  private forget(slot: Slot): boolean {
    const index = this.slots.indexOf(slot);
    if (index < 0) return false;
    this.slots[index] = undefined;
    return true;
  }

  /** The processes' ids (for tests and the benchmark: to see that they stay warm, or are replaced). */
  pids(): number[] {
    return this.slots.flatMap((slot) => (slot?.child.pid === undefined ? [] : [slot.child.pid]));
  }

  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('untrusted file worker closed');
    for (const task of this.queue.splice(0)) task.reject(error);
    const slots = this.slots.filter((slot): slot is Slot => Boolean(slot));
    for (const slot of slots) {
      this.forget(slot);
      slot.child.ref(); // until its exit is seen
      slot.child.kill('SIGKILL');
      this.finish(slot, (task) => task.reject(error));
    }
    await Promise.all(slots.map((slot) => slot.exited));
  }
}
