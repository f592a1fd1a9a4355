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

/** Kills a process started with `detached` and everything it started (soffice is a launcher for soffice.bin). */
function killGroup(child: ChildProcess | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // the group outlives its leader: soffice.bin may run on after the launcher
  } catch {
    child.kill('SIGKILL'); // the group is gone already
  }
}

function hasUno(): boolean {
  return spawnSync(PYTHON, ['-c', 'import uno'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/**
 * Word files to PDF with LibreOffice headless. A warm soffice with a UNO bridge is
 * started on first use and reused; starting it and each conversion have the timeout,
 * after which soffice's whole process group (soffice.bin too) and the bridge are killed:
 * a hanging file cannot block the next one. A soffice that dies (a file crashed it) is
 * replaced at the next conversion, and one outliving a killed server is ended by the
 * bridge's watchdog. Its own profile directory keeps it apart from any desktop
 * LibreOffice. Without python3-uno it falls back to one soffice per file.
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
    const bridge = this.bridge;
    if (!bridge?.stdin?.writable) throw new Error('LibreOffice stopped');
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
      bridge.stdin!.write(`${JSON.stringify({ id, input, output })}\n`);
    });
  }

  /**
   * Starts soffice and the bridge, within the conversion timeout: a soffice that never
   * opens its socket, or dies, fails the conversion then and there (it is retried).
   */
  private startWarm(): Promise<void> {
    this.ready ??= (async () => {
      const { timeoutMs } = this.options;
      const port = await freePort();
      const profile = join(this.options.workDir, `lo-profile-${process.pid}-${port}`);
      mkdirSync(profile, { recursive: true });
      // its own process group: stop() ends soffice.bin too, not only the launcher
      const soffice = spawn(this.options.sofficePath!, [
        '--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nofirststartwizard', '--nolockcheck',
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
        `--accept=socket,host=127.0.0.1,port=${port};urp;StarOffice.ComponentContext`,
      ], { stdio: 'ignore', detached: true });
      // the bridge gives up connecting after the timeout, and ends soffice if this server dies
      const bridge = spawn(PYTHON, [new URL('./uno-bridge.py', import.meta.url).pathname, String(port), String(Math.ceil(timeoutMs / 1000)), String(soffice.pid ?? 0)], { stdio: ['pipe', 'pipe', 'ignore'] });
      this.soffice = soffice;
      this.bridge = bridge;
      const lines = createInterface({ input: bridge.stdout! });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ConversionTimeoutError(`LibreOffice did not start within ${timeoutMs} ms`)), timeoutMs);
        lines.on('line', (line) => {
          let message: { ready?: boolean; id?: number; ok?: boolean; error?: string; stopped?: boolean };
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
          if (message.stopped && this.bridge === bridge) this.stop(); // the file crashed soffice: the next conversion starts a new one
          if (message.ok) waiter?.resolve();
          else waiter?.reject(new Error(message.error ?? 'LibreOffice could not convert the file'));
        });
        // either process ending (a crash on a file, a soffice that cannot start) ends this instance;
        // the next conversion starts new ones
        const ended = (what: string) => () => {
          clearTimeout(timer);
          reject(new Error(`${what} stopped`));
          if (this.bridge !== bridge) return; // stop() already ran; a newer instance may be running
          for (const waiter of this.waiting.values()) waiter.reject(new Error(`${what} stopped`));
          this.waiting.clear();
          this.stop();
        };
        bridge.on('exit', ended('the LibreOffice bridge'));
        soffice.on('exit', ended('LibreOffice'));
        bridge.on('error', ended('the LibreOffice bridge'));
        soffice.on('error', ended('LibreOffice'));
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
    const { bridge, soffice } = this;
    this.bridge = undefined;
    this.soffice = undefined;
    bridge?.kill('SIGKILL');
    killGroup(soffice);
  }

  /** One soffice for one file, when the UNO bridge is not available. */
  private convertOnce(input: string, output: string): Promise<void> {
    const profile = join(this.options.workDir, `lo-once-${process.pid}-${this.next++}`);
    const outDir = join(this.options.workDir, `lo-out-${process.pid}-${this.next}`);
    mkdirSync(outDir, { recursive: true });
    return new Promise<void>((resolve, reject) => {
      const child = spawn(this.options.sofficePath!, [
        '--headless', '--norestore', `-env:UserInstallation=${pathToFileURL(profile).href}`, '--convert-to', 'pdf', '--outdir', outDir, input,
      ], { stdio: 'ignore', detached: true });
      child.on('error', (error) => reject(error));
      const timer = setTimeout(() => {
        killGroup(child);
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
