import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UntrustedFileWorker, WorkerLimitError } from '../../src/server/documents/untrusted-file-worker.ts';
import { isAlive } from '../helpers/process-server.ts';
import { makePdf } from '../../support/document-fixtures.ts';

/**
 * The untrusted file worker's processes: warm between files, killed and replaced past their
 * time or memory limit (heap, or buffers outside it) or when they die, with the tasks queued
 * behind going to the new process. A stand-in worker acts out each case by the first byte
 * of the file it is given.
 */
const folder = mkdtempSync(join(tmpdir(), 'untrusted-file-worker-'));
const standIn = join(folder, 'stand-in.mjs');
writeFileSync(standIn, `
  process.on('message', ({ id, args }) => {
    const bytes = args[1];
    if (bytes[0] === 0) for (;;) {} // a parser loop
    if (bytes[0] === 1) { const held = []; for (;;) held.push(Buffer.alloc(8 * 1024 * 1024, 1)); } // buffers, outside the heap
    if (bytes[0] === 2) { const held = []; for (;;) held.push({ index: held.length, text: 'x'.repeat(40) + held.length }); } // the heap
    if (bytes[0] === 3) process.exit(3); // a crash
    process.send({ id, result: new Uint8Array([37, 80, 68, 70, bytes[0], process.pid & 0xff]) });
  });
  process.on('disconnect', () => process.exit(0));
  process.send('ready');
`);
const workers: UntrustedFileWorker[] = [];
const standInWorker = (options: ConstructorParameters<typeof UntrustedFileWorker>[0] = {}) => {
  const worker = new UntrustedFileWorker({ entry: standIn, processes: 1, ...options });
  workers.push(worker);
  return worker;
};
const file = (first: number) => new Uint8Array([first]);
/** The stand-in's answer: "%PDF" and the first byte it was given. */
const first5 = (pdf: Uint8Array | undefined) => [...pdf!.subarray(0, 5)];
afterAll(async () => {
  for (const worker of workers) await worker.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the untrusted file worker', () => {
  it('keeps one warm process for file after file, and runs the real tasks there', async () => {
    const worker = new UntrustedFileWorker({ processes: 1 });
    workers.push(worker);
    const pdf = await makePdf();
    expect((await worker.run('convert', 'pdf', pdf))!.subarray(0, 5)).toEqual(new Uint8Array(Buffer.from('%PDF-')));
    const [pid] = worker.pids();
    for (let run = 0; run < 3; run++) await worker.run('checkPdf', pdf);
    expect(worker.pids()).toEqual([pid]);
    await expect(worker.run('convert', 'png', pdf)).rejects.toMatchObject({ reason: 'not_real_type' });
    expect(worker.pids()).toEqual([pid]); // a refusal is no reason to start again
  });

  it('gives up on a file past the time limit and replaces the process; files queued behind it still convert', async () => {
    const worker = standInWorker({ timeoutMs: 1500 });
    expect(first5(await worker.run('convert', 'png', file(7)))).toEqual([37, 80, 68, 70, 7]); // warm
    const [stuckPid] = worker.pids();
    const stuck = worker.run('convert', 'png', file(0));
    const queued = worker.run('convert', 'jpeg', file(9));
    await expect(stuck).rejects.toThrow(WorkerLimitError);
    await expect(stuck).rejects.toMatchObject({ limit: 'time', message: 'the file took longer than 1500 ms' });
    expect(first5(await queued)).toEqual([37, 80, 68, 70, 9]);
    expect(worker.pids()).not.toContain(stuckPid);
    await expect.poll(() => isAlive(stuckPid!)).toBe(false);
  });

  it('kills a process whose memory outgrows its limit, heap or not, and goes on in a new one', async () => {
    const worker = standInWorker({ memoryMb: 300, heapMb: 64, timeoutMs: 60_000 });
    await expect(worker.run('convert', 'png', file(1))).rejects.toMatchObject({ limit: 'memory', message: 'the file took more than 300 MB' });
    await expect(worker.run('convert', 'png', file(2))).rejects.toMatchObject({ limit: 'memory' });
    expect(first5(await worker.run('convert', 'png', file(5)))).toEqual([37, 80, 68, 70, 5]);
  });

  it('fails the file of a process that dies, and starts another for the next', async () => {
    const worker = standInWorker();
    await expect(worker.run('convert', 'png', file(3))).rejects.toThrow(/stopped \(exit code 3\)/);
    expect(first5(await worker.run('convert', 'png', file(4)))).toEqual([37, 80, 68, 70, 4]);
  });

  it('runs as many files at once as it has processes, and ends them all when closed', async () => {
    const worker = standInWorker({ processes: 2, timeoutMs: 60_000 });
    const stuck = [0, 0, 0].map((first) => worker.run('convert', 'png', file(first)).then(() => 'converted', (error: Error) => error.message));
    await expect.poll(() => worker.pids().length).toBe(2);
    const pids = worker.pids();
    await worker.close();
    expect(await Promise.all(stuck)).toEqual(['untrusted file worker closed', 'untrusted file worker closed', 'untrusted file worker closed']);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });
});
