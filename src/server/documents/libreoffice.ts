import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

export class ConverterMissingError extends Error {}
export class ConversionTimeoutError extends Error {}

const PYTHON = '/usr/bin/python3'; // Debian's, which has the uno module (python3-uno)

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    }).on('error', reject);
  });
}

function hasUno(): boolean {
  return spawnSync(PYTHON, ['-c', 'import uno'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/**
 * Word files to PDF with LibreOffice headless. A warm soffice with a UNO bridge is
 * started on first use and reused; each conversion has a timeout, after which both
 * processes are killed (a hanging file cannot block the next one). Its own profile
 * directory keeps it apart from any desktop LibreOffice. Without python3-uno it falls
 * back to one soffice per file.
 */
export class LibreOfficeConverter {
  private soffice: ChildProcess | undefined;
  private bridge: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly warm: boolean;

  constructor(private readonly options: { sofficePath: string | undefined; workDir: string; timeoutMs: number }) {
    this.warm = hasUno();
  }

  async convert(input: string, output: string): Promise<void> {
    if (!this.options.sofficePath) throw new ConverterMissingError('LibreOffice (soffice) is not installed: apt-get install libreoffice-writer-nogui');
    if (!this.warm) return this.convertOnce(input, output);
    await this.startWarm();
    const id = this.next++;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        this.stop();
        reject(new ConversionTimeoutError(`LibreOffice took longer than ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      this.waiting.set(id, {
        resolve: () => { clearTimeout(timer); resolve(); },
        reject: (error) => { clearTimeout(timer); reject(error); },
      });
      this.bridge!.stdin!.write(`${JSON.stringify({ id, input, output })}\n`);
    });
  }

  private startWarm(): Promise<void> {
    this.ready ??= (async () => {
      const port = await freePort();
      const profile = join(this.options.workDir, `lo-profile-${process.pid}-${port}`);
      mkdirSync(profile, { recursive: true });
      this.soffice = spawn(this.options.sofficePath!, [
        '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nofirststartwizard', '--nolockcheck',
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
        `--accept=socket,host=127.0.0.1,port=${port};urp;StarOffice.ComponentContext`,
      ], { stdio: 'ignore' });
      this.bridge = spawn(PYTHON, [new URL('./uno-bridge.py', import.meta.url).pathname, String(port)], { stdio: ['pipe', 'pipe', 'ignore'] });
      const lines = createInterface({ input: this.bridge.stdout! });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ConversionTimeoutError('LibreOffice did not start')), 60_000);
        lines.on('line', (line) => {
          let message: { ready?: boolean; id?: number; ok?: boolean; error?: string };
          try {
            message = JSON.parse(line);
          } catch {
            return; // not ours (a warning LibreOffice printed)
          }
          if (message.ready) {
            clearTimeout(timer);
            resolve();
            return;
          }
          const waiter = this.waiting.get(message.id ?? -1);
          this.waiting.delete(message.id ?? -1);
          if (message.ok) waiter?.resolve();
          else waiter?.reject(new Error(message.error ?? 'LibreOffice could not convert the file'));
        });
        this.bridge!.on('exit', () => {
          clearTimeout(timer);
          reject(new Error('the LibreOffice bridge stopped'));
          for (const waiter of this.waiting.values()) waiter.reject(new Error('LibreOffice stopped'));
          this.waiting.clear();
          this.stop();
        });
      });
    })().catch((error) => {
      this.stop();
      throw error;
    });
    return this.ready;
  }

  /** Kills the warm processes; the next conversion starts new ones. */
  stop(): void {
    this.ready = undefined;
    this.bridge?.kill('SIGKILL');
    this.soffice?.kill('SIGKILL');
    this.bridge = undefined;
    this.soffice = undefined;
  }

  /** One soffice for one file, when the UNO bridge is not available. */
  private convertOnce(input: string, output: string): Promise<void> {
    const profile = join(this.options.workDir, `lo-once-${process.pid}-${this.next++}`);
    const outDir = join(this.options.workDir, `lo-out-${process.pid}-${this.next}`);
    mkdirSync(outDir, { recursive: true });
    return new Promise<void>((resolve, reject) => {
      const child = spawn(this.options.sofficePath!, [
        '--headless', '--norestore', `-env:UserInstallation=${pathToFileURL(profile).href}`, '--convert-to', 'pdf', '--outdir', outDir, input,
      ], { stdio: 'ignore' });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new ConversionTimeoutError(`LibreOffice took longer than ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (code !== 0) return reject(new Error(`soffice exited with ${code}`));
        const produced = join(outDir, input.slice(input.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '.pdf'));
        try {
          renameSync(produced, output);
          resolve();
        } catch (error) {
          reject(error as Error);
        }
      });
    }).finally(() => {
      rmSync(profile, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    });
  }
}
