// The untrusted file worker process (started by UntrustedFileWorker): runs one task at a
// time on uploaded bytes and answers over IPC. Its memory and time are limited from
// outside; when it is killed, only this process goes.
import { FileRefusal } from './file-refusal.ts';
import { untrustedFileTasks } from './untrusted-file-tasks.ts';
import { READY, type TaskReply, type TaskRequest } from './untrusted-file-worker.ts';

/**
 * Bytes of their own for the task: a Uint8Array that arrives over IPC is a view into the
 * message, on which pdf-lib runs ten times slower (and its JPEG reader reads the whole
 * buffer under the view). Copying a megabyte takes a fraction of a millisecond.
 */
function owned(value: unknown): unknown {
  if (value instanceof Uint8Array) return new Uint8Array(value);
  return Array.isArray(value) ? value.map(owned) : value;
}

process.on('message', async ({ id, task, args }: TaskRequest) => {
  let reply: TaskReply;
  try {
    const run = untrustedFileTasks[task] as (...values: unknown[]) => Promise<unknown>;
    reply = { id, result: await run(...args.map(owned)) };
  } catch (error) {
    reply = { id, error: { message: error instanceof Error ? error.message : String(error), reason: error instanceof FileRefusal ? error.reason : undefined } };
  }
  process.send?.(reply);
});

// the server went away: nothing is left to answer
process.on('disconnect', () => process.exit(0));
process.send?.(READY);
