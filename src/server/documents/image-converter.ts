import { Worker } from 'node:worker_threads';

interface Waiter {
  bytes: Uint8Array;
  kind: 'png' | 'jpeg';
  timer: NodeJS.Timeout | undefined;
  resolve: (pdf: Uint8Array) => void;
  reject: (error: Error) => void;
}

export class ImageConversionTimeoutError extends Error {}

/**
 * A long-lived worker thread that turns images into PDFs, one request at a time per worker.
 * A conversion that takes longer than timeoutMs fails, and its worker is replaced (a
 * decoder stuck in a loop would otherwise hold every later image): the requests queued
 * behind it go to the new worker.
 */
export class ImageConverter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, Waiter>();
  private readonly timeoutMs: number;
  private readonly workerUrl: URL;

  constructor(options: { timeoutMs?: number; workerUrl?: URL } = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.workerUrl = options.workerUrl ?? new URL('./image-to-pdf.worker.mjs', import.meta.url);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    worker.on('message', ({ id, pdf, error }: { id: number; pdf?: Uint8Array; error?: string }) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      clearTimeout(waiter.timer);
      if (error || !pdf) waiter.reject(new Error(error ?? 'image conversion failed'));
      else waiter.resolve(pdf);
    });
    // a crash (out of memory on a hostile image) fails what was waiting; the next call starts a new worker
    worker.on('error', (error) => {
      if (this.worker === worker) this.failAll(error);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return; // replaced on purpose
      this.worker = undefined;
      this.failAll(new Error('image worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiting.clear();
  }

  private send(id: number, waiter: Waiter): void {
    clearTimeout(waiter.timer);
    waiter.timer = setTimeout(() => this.timedOut(id), this.timeoutMs);
    waiter.timer.unref();
    this.start().postMessage({ id, bytes: waiter.bytes, kind: waiter.kind });
  }

  private timedOut(id: number): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    waiter.reject(new ImageConversionTimeoutError(`image conversion took longer than ${this.timeoutMs} ms`));
    const stuck = this.worker;
    this.worker = undefined;
    void stuck?.terminate();
    for (const [other, queued] of this.waiting) this.send(other, queued);
  }

  convert(bytes: Uint8Array, kind: 'png' | 'jpeg'): Promise<Uint8Array> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { bytes, kind, timer: undefined, resolve, reject };
      this.waiting.set(id, waiter);
      this.send(id, waiter);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('image converter closed'));
    await worker?.terminate();
  }
}
