import { Worker } from 'node:worker_threads';

/** A long-lived worker thread that turns images into PDFs, one request at a time per worker. */
export class ImageConverter {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (pdf: Uint8Array) => void; reject: (error: Error) => void }>();

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./image-to-pdf.worker.mjs', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    worker.on('message', ({ id, pdf, error }: { id: number; pdf?: Uint8Array; error?: string }) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error || !pdf) waiter?.reject(new Error(error ?? 'image conversion failed'));
      else waiter?.resolve(pdf);
    });
    // a crash (out of memory on a hostile image) fails what was waiting; the next call starts a new worker
    worker.on('error', (error) => this.failAll(error));
    worker.on('exit', () => {
      this.worker = undefined;
      this.failAll(new Error('image worker stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }

  convert(bytes: Uint8Array, kind: 'png' | 'jpeg'): Promise<Uint8Array> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.start().postMessage({ id, bytes, kind });
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
  }
}
