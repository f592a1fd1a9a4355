import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, constants, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { confinedView, fileConfinementWorks, programFolders } from '../lib/file-confinement.ts';
import { childEnvironment } from './child-environment.ts';
import { PROFILE_SETTINGS } from './libreoffice-profile.ts';

export class ConverterMissingError extends Error {}
/** Word conversion is switched off on this machine (see LibreOfficeConverter.off): to the applicant, as if LibreOffice were missing. */
export class ConverterOffError extends ConverterMissingError {}
export class ConversionTimeoutError extends Error {}
/** The file itself took LibreOffice past the timeout (not a LibreOffice that would not start): trying again costs as much. */
export class FileTookTooLongError extends ConversionTimeoutError {}

const PYTHON = '/usr/bin/python3'; // Debian's, which has the uno module (python3-uno)
const BRIDGE = fileURLToPath(new URL('./uno-bridge.py', import.meta.url));

/** Kills a process started with `detached` and everything it started (soffice is a launcher for soffice.bin). */
function killGroup(child: ChildProcess | undefined): void {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // the group outlives its leader: soffice.bin may run on after the launcher
  } catch {
    child.kill('SIGKILL'); // the group is gone already
  }
}

let unoFound: boolean | undefined;

/** Whether Python's uno module is installed: asked once per process (a Python start holds the event loop about 0.4 s). */
function hasUno(): boolean {
  unoFound ??= spawnSync(PYTHON, ['-c', 'import uno'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return unoFound;
}

/** How LibreOffice is confined on this machine: found once per process. */
export interface Sandbox {
  /** The user soffice and the bridge run as. */
  uid: number;
  gid: number;
  /** True when soffice runs as another user than the server (`nobody`). */
  otherUser: boolean;
  /** True when soffice and the bridge run in a network namespace of their own, with no interface up. */
  noNetwork: boolean;
  /**
   * True when soffice and the bridge see a file system of their own (bubblewrap): their box
   * as /tmp, the read-only program files they need, nothing else (lib/file-confinement.ts).
   */
  ownFiles: boolean;
  /**
   * Put before a command to run it so, working in `box` (with `readable` besides, read-only);
   * ends with a shell that sets umask 077 (the pipe's socket is then 0700).
   */
  prefix(box: string, readable?: { path: string; at?: string }[]): string[];
  /** Put before a command to run it as that user only (empty: the server's own user). */
  runAs: string[];
  /** What could not be done here, for the log. */
  missing: string[];
}

const ok = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 }).status === 0;
const idOf = (flag: '-u' | '-g', user: string) => Number(spawnSync('id', [flag, user], { encoding: 'utf8', timeout: 10_000 }).stdout?.trim() || NaN);

/** Whether another user may pass through `path` and every folder above it (each has o+x). */
export function searchableByOthers(path: string): boolean {
  for (let folder = resolve(path); ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return false;
    if (dirname(folder) === folder) return true;
  }
}

const sandboxes = new Map<string, Sandbox>();
const warned = new WeakSet<Sandbox>(); // what is missing is logged once

/**
 * As root: soffice runs as `user` (setpriv, no new privileges) in a new network namespace
 * (unshare), so a file it opens can reach no address, not even 127.0.0.1, and read only
 * what that user may. As another user: a user namespace mapped to the same user gives the
 * network namespace where the kernel allows it. Whatever is missing is named in `missing`.
 */
export function libreOfficeSandbox(user = 'nobody'): Sandbox {
  const known = sandboxes.get(user);
  if (known) return known;
  const missing: string[] = [];
  const root = process.getuid?.() === 0;
  let uid = process.getuid?.() ?? 0;
  let gid = process.getgid?.() ?? 0;
  const switchUser: string[] = [];
  if (root) {
    const [userId, groupId] = [idOf('-u', user), idOf('-g', user)];
    const setpriv = ['setpriv', `--reuid=${userId}`, `--regid=${groupId}`, '--clear-groups', '--no-new-privs', '--'];
    if (Number.isInteger(userId) && Number.isInteger(groupId) && userId !== 0 && ok(setpriv[0]!, [...setpriv.slice(1), 'true'])) {
      [uid, gid] = [userId, groupId];
      switchUser.push(...setpriv);
    } else {
      missing.push(`LibreOffice runs as root: no user "${user}" or no setpriv (util-linux)`);
    }
  }
  const unshare = root ? ['unshare', '--net', '--'] : ['unshare', '--user', '--map-current-user', '--net', '--'];
  const noNetwork = ok(unshare[0]!, [...unshare.slice(1), 'true']);
  if (!noNetwork) missing.push('LibreOffice has the network: network namespaces are not available (unshare)');
  if (!root) missing.push('LibreOffice runs as the server\'s user (the server does not run as root)');
  const ownFiles = fileConfinementWorks();
  if (!ownFiles) missing.push('LibreOffice and Chromium see the whole file system (what their user may read): bubblewrap (bwrap) is not installed or not allowed here');
  const sandbox: Sandbox = {
    uid, gid, otherUser: switchUser.length > 0, noNetwork, ownFiles, missing, runAs: switchUser,
    prefix: (box, readable = []) => [
      ...(noNetwork ? unshare : []),
      ...(ownFiles ? confinedView({ writable: [{ path: box, at: BOX_INSIDE }], readable }) : []),
      ...switchUser, '/bin/sh', '-c', 'umask 077 && exec "$@"', 'lo-sandbox',
    ],
  };
  sandboxes.set(user, sandbox);
  return sandbox;
}

/** Where the box is inside a file system of LibreOffice's own: its /tmp (where the UNO pipe's socket is made too). */
const BOX_INSIDE = '/tmp';
/** Where the bridge's script is inside it (read-only). */
const BRIDGE_INSIDE = '/opt/admission/uno-bridge.py';

/**
 * The unix sockets soffice leaves in /tmp when it is killed: the UNO pipe and its
 * single-instance pipe, named after the MD5 of the profile's address (officeipcthread.cxx).
 */
function pipeSockets(uid: number, profileUrl: string, pipe?: string): string[] {
  const hash = [...createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest()].map((byte) => byte.toString(16)).join('');
  return [`/tmp/OSL_PIPE_${uid}_SingleOfficeIPC_${hash}`, ...(pipe ? [`/tmp/OSL_PIPE_${uid}_${pipe}`] : [])];
}

const BOX_PREFIX = 'admission-lo-';
const PIPE_NAME = /^admission_[0-9a-f]{32}$/;

/**
 * Each soffice gets `<tmp>/admission-lo-XXXXXX/box`: the outer folder is the server's (0711:
 * the sandbox user passes through but cannot rename or add anything, so no path root uses
 * can be swapped for a symlink), the box the sandbox user's (0700). The outer folder also
 * holds what that user must not change: the bridge it runs and the pipe's name.
 */
const boxOf = (outer: string) => join(outer, 'box');

/**
 * Removes a box's content and the sockets of its soffice as the sandbox user (who may have
 * put symlinks there, which root must not follow), then, without recursing, the emptied box
 * and the outer folder (a box not empty yet is left to sweepLeftovers). In the background.
 */
function removeBox(sandbox: Sandbox, outer: string, sockets: string[]): void {
  if (!sandbox.runAs.length) {
    for (const path of [...sockets, outer]) rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    return;
  }
  const removeOuter = () => {
    try {
      for (const name of readdirSync(outer)) if (name !== 'box') rmSync(join(outer, name), { force: true });
      rmdirSync(boxOf(outer));
      rmdirSync(outer);
    } catch {
      // gone already, or the box is not empty yet
    }
  };
  const [first, ...rest] = sandbox.runAs;
  // rm empties the box; the box itself, in the outer folder, only root can remove
  spawn(first!, [...rest, 'rm', '-rf', '--', ...sockets, boxOf(outer)], { stdio: 'ignore', cwd: '/', env: childEnvironment() })
    .on('error', () => {})
    .on('exit', removeOuter);
}

/**
 * Folders (and sockets) of LibreOffices that ended without cleaning up: a server and its
 * watchdog both killed. A folder no process works in (soffice and the bridge run in theirs)
 * and untouched for a minute is such a leftover.
 */
function sweepLeftovers(sandbox: Sandbox): void {
  const working = new Set<string>();
  const commands: string[] = []; // a confined soffice works in its /tmp: its sandbox's command line names the box
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      working.add(readlinkSync(`/proc/${pid}/cwd`));
      commands.push(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
    } catch {
      // ended meanwhile, or another user's
    }
  }
  const inUse = (box: string) => working.has(box) || commands.some((command) => command.includes(`\0${box}\0`));
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(BOX_PREFIX))) {
    const outer = join(tmpdir(), name);
    try {
      const info = lstatSync(outer);
      if (!info.isDirectory() || info.uid !== process.getuid?.() || inUse(boxOf(outer)) || Date.now() - info.mtimeMs < 60_000) continue;
      let pipe: string | undefined;
      try {
        pipe = readFileSync(join(outer, 'pipe'), 'utf8');
      } catch {
        pipe = undefined; // a one-file soffice has none
      }
      removeBox(sandbox, outer, pipeSockets(sandbox.uid, pathToFileURL(join(boxOf(outer), 'profile')).href, pipe && PIPE_NAME.test(pipe) ? pipe : undefined));
    } catch {
      // removed meanwhile
    }
  }
}

/**
 * Word files to PDF with LibreOffice headless. A warm soffice with a UNO bridge is
 * started on first use and reused; starting it and each conversion have the timeout,
 * after which soffice's whole process group (soffice.bin too) and the bridge are killed:
 * a hanging file cannot block the next one. A soffice that dies (a file crashed it) is
 * replaced at the next conversion, and one outliving a killed server is ended by the
 * bridge's watchdog. Without python3-uno it falls back to one soffice per file.
 *
 * Confined (see `libreOfficeSandbox`): the bridge reaches soffice over a UNO pipe with a
 * random name, a unix socket only its user can open (mode 0700), never a TCP port; both
 * get a private 0700 folder (profile, HOME, TMPDIR and the files being converted, copied
 * in and out) and none of the server's environment (its secrets).
 */
export class LibreOfficeConverter {
  private soffice: ChildProcess | undefined;
  private bridge: ChildProcess | undefined;
  private outer: string | undefined;
  private sockets: string[] = [];
  private ready: Promise<void> | undefined;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private readonly warm: boolean;
  private readonly sandbox: Sandbox;
  private swept = false;

  constructor(private readonly options: {
    sofficePath: string | undefined; workDir: string; timeoutMs: number;
    /** how long a warm LibreOffice may take to start (default: timeoutMs); a cold start on a busy machine is slow */
    startTimeoutMs?: number;
    user?: string; warn?: (message: string) => void;
    /**
     * Convert even where LibreOffice cannot get a network of its own and would have the
     * server's (CONVERTER_ALLOW_HOST_NETWORK): an operator's choice, never the default.
     */
    allowHostNetwork?: boolean;
    /** the most address space soffice may take (RLIMIT_AS, CONVERTER_MEMORY_MB); unset: no limit */
    memoryMb?: number;
  }) {
    this.warm = hasUno();
    this.sandbox = libreOfficeSandbox(options.user);
    const warn = options.warn ?? console.warn;
    if (this.sandbox.missing.length && !warned.has(this.sandbox)) {
      warned.add(this.sandbox);
      warn(`LibreOffice is less confined here: ${this.sandbox.missing.join('; ')}`);
    }
    const off = this.off();
    if (off) warn(`Word conversion is off: ${off}`);
  }

  /**
   * Why Word files are not converted here, or undefined when they are. The sandbox fails
   * closed: without a network namespace of its own, LibreOffice would reach whatever the
   * server reaches (and a file's links would make it), so it does not run unless the
   * operator says so.
   */
  off(): string | undefined {
    if (this.sandbox.noNetwork || this.options.allowHostNetwork) return undefined;
    return 'LibreOffice cannot get an isolated network here (no network namespaces) and would have the server\'s network; '
      + 'set CONVERTER_ALLOW_HOST_NETWORK=true to convert Word files anyway';
  }

  /** Whether LibreOffice runs in a network of its own ('isolated') or, by the operator's override, in the server's ('host'). */
  get network(): 'isolated' | 'host' {
    return this.sandbox.noNetwork ? 'isolated' : 'host';
  }

  async convert(input: string, output: string): Promise<void> {
    if (!this.options.sofficePath) throw new ConverterMissingError('LibreOffice (soffice) is not installed: apt-get install libreoffice-writer-nogui');
    const off = this.off();
    if (off) throw new ConverterOffError(off);
    if (!this.warm) return this.convertOnce(input, output);
    await this.startWarm();
    const { bridge, outer } = this;
    if (!bridge?.stdin?.writable || !outer) throw new Error('LibreOffice stopped');
    const box = boxOf(outer);
    const id = this.next++;
    const inside = join(box, `${id}${extname(input) || '.docx'}`);
    const produced = join(box, `${id}.pdf`);
    try {
      await this.copyIn(input, inside);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.waiting.delete(id);
          this.stop();
          reject(new FileTookTooLongError(`LibreOffice took longer than ${this.options.timeoutMs} ms`));
        }, this.options.timeoutMs);
        this.waiting.set(id, {
          resolve: () => { clearTimeout(timer); resolve(); },
          reject: (error) => { clearTimeout(timer); reject(error); },
        });
        bridge.stdin!.write(`${JSON.stringify({ id, input: this.seen(box, inside), output: this.seen(box, produced) })}\n`);
      });
      await this.copyOut(produced, output);
    } finally {
      await rm(inside, { force: true }).catch(() => {});
      await rm(produced, { force: true }).catch(() => {});
    }
  }

  /** A private folder for one soffice (see boxOf), `files` in its outer folder; returns the outer folder. */
  private makeBox(files: Record<string, string | Buffer> = {}): string {
    if (!this.swept) {
      this.swept = true;
      sweepLeftovers(this.sandbox);
    }
    if (this.sandbox.otherUser && !searchableByOthers(tmpdir())) {
      throw new Error(`LibreOffice runs as another user, who cannot reach the temporary folder ${tmpdir()} (TMPDIR): make it and the folders above it searchable by others (chmod o+x), as /tmp is`);
    }
    const outer = mkdtempSync(join(tmpdir(), BOX_PREFIX));
    chmodSync(outer, 0o711); // modes set with chmod: the server's umask (077) does not apply
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(join(outer, name), content);
      chmodSync(join(outer, name), 0o644);
    }
    const box = boxOf(outer);
    mkdirSync(box);
    chmodSync(box, 0o700);
    // the profile's settings, written while the box is still the server's alone, then handed over
    const settings = join(box, 'profile', 'user', 'registrymodifications.xcu');
    mkdirSync(join(box, 'profile', 'user'), { recursive: true, mode: 0o700 });
    writeFileSync(settings, PROFILE_SETTINGS, { mode: 0o600 });
    if (this.sandbox.otherUser) {
      for (const path of [settings, join(box, 'profile', 'user'), join(box, 'profile'), box]) chownSync(path, this.sandbox.uid, this.sandbox.gid);
    }
    return outer;
  }

  /** A new file in the folder, given to its user (O_EXCL and fchown: nothing there is followed). */
  private async copyIn(from: string, to: string): Promise<void> {
    const file = await open(to, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      if (this.sandbox.otherUser) await file.chown(this.sandbox.uid, this.sandbox.gid);
      await file.writeFile(await readFile(from));
    } finally {
      await file.close();
    }
  }

  /** What soffice wrote, if it is a plain file (a symlink there is not followed). */
  private async copyOut(from: string, to: string): Promise<void> {
    const file = await open(from, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (!(await file.stat()).isFile()) throw new Error('LibreOffice wrote no PDF');
      await writeFile(to, await file.readFile());
    } finally {
      await file.close();
    }
  }

  /** A path in `box` as LibreOffice sees it: in a file system of its own, the box is its /tmp. */
  private seen(box: string, path: string): string {
    return this.sandbox.ownFiles ? join(BOX_INSIDE, relative(box, path)) : path;
  }

  /**
   * Runs `command` confined, in `box`, with an environment of its own: no secret of the
   * server's reaches LibreOffice. soffice itself also gets its memory limit (`limited`).
   * `readable`: what it reads besides the system's program files (the bridge's script).
   */
  private spawnConfined(command: string, args: string[], box: string, stdio: 'ignore' | ['pipe', 'pipe', 'ignore'], detached: boolean, limited = false, readable: { path: string; at?: string }[] = []): ChildProcess {
    const env = childEnvironment({ HOME: this.seen(box, box), TMPDIR: this.seen(box, box) });
    const programs = programFolders(command).map((path) => ({ path }));
    const [first, ...rest] = this.sandbox.prefix(box, [...programs, ...readable]);
    // prlimit (util-linux) sets RLIMIT_AS, then runs soffice: an allocation past it fails, and soffice with it
    const limit = limited && this.options.memoryMb ? ['prlimit', `--as=${this.options.memoryMb * 1024 * 1024}`, '--'] : [];
    return spawn(first!, [...rest, ...limit, command, ...args], { stdio, detached, env, cwd: box });
  }

  /** soffice's arguments; the work folder names the server it works for (ps, and the tests that look for it). */
  private sofficeArgs(profileUrl: string): string[] {
    return ['--headless', '--invisible', '--nologo', '--norestore', '--nodefault', '--nofirststartwizard', '--nolockcheck',
      `-env:UserInstallation=${profileUrl}`, `-env:AdmissionWorkDir=${this.options.workDir}`];
  }

  /**
   * Starts soffice and the bridge, within the conversion timeout: a soffice that never
   * opens its pipe, or dies, fails the conversion then and there (it is retried).
   */
  private startWarm(): Promise<void> {
    this.ready ??= (async () => {
      const timeoutMs = this.options.startTimeoutMs ?? this.options.timeoutMs;
      const pipe = `admission_${randomBytes(16).toString('hex')}`; // unguessable; the socket's mode keeps others out anyway
      // the bridge runs from the outer folder, where its user cannot change it and need not read the
      // server's files; the pipe's name is kept there for sweepLeftovers()
      const outer = this.makeBox({ 'uno-bridge.py': readFileSync(BRIDGE), pipe });
      const box = boxOf(outer);
      const profileUrl = pathToFileURL(this.seen(box, join(box, 'profile'))).href;
      const bridgeCopy = join(outer, 'uno-bridge.py');
      const bridgeSeen = this.sandbox.ownFiles ? BRIDGE_INSIDE : bridgeCopy;
      // The bridge first: it gives up connecting after the timeout, and its watchdog ends soffice
      // (and removes the folder) if this server dies. soffice starts only once the watchdog
      // watches: a server killed while the bridge's own start was under way would leave a
      // soffice that no one ends.
      const bridge = this.spawnConfined(PYTHON, [bridgeSeen, pipe, String(Math.ceil(timeoutMs / 1000)), this.seen(box, box), String(process.pid)], box, ['pipe', 'pipe', 'ignore'], false, false,
        [{ path: bridgeCopy, at: BRIDGE_INSIDE }]);
      // its own process group: stop() ends soffice.bin too, not only the launcher
      const startSoffice = () => this.spawnConfined(this.options.sofficePath!, [
        ...this.sofficeArgs(profileUrl), `--accept=pipe,name=${pipe};urp;StarOffice.ComponentContext`,
      ], box, 'ignore', true, true);
      this.bridge = bridge;
      this.outer = outer;
      // confined, the sockets are made in the box, and go with it
      this.sockets = this.sandbox.ownFiles ? [] : pipeSockets(this.sandbox.uid, profileUrl, pipe);
      const lines = createInterface({ input: bridge.stdout! });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new ConversionTimeoutError(`LibreOffice did not start within ${timeoutMs} ms`)), timeoutMs);
        lines.on('line', (line) => {
          let message: { watching?: boolean; ready?: boolean; id?: number; ok?: boolean; error?: string; stopped?: boolean };
          try {
            message = JSON.parse(line);
          } catch {
            return; // not ours (a warning LibreOffice printed)
          }
          if (message.watching) {
            if (this.bridge !== bridge) return; // stopped meanwhile
            const soffice = (this.soffice = startSoffice());
            soffice.on('exit', ended('LibreOffice'));
            soffice.on('error', ended('LibreOffice'));
            return;
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
        bridge.on('error', ended('the LibreOffice bridge'));
      });
    })().catch((error) => {
      this.stop();
      throw error;
    });
    return this.ready;
  }

  /** Kills the warm processes and removes their folder and sockets; the next conversion starts new ones. */
  stop(): void {
    this.ready = undefined;
    const { bridge, soffice, outer, sockets } = this;
    this.bridge = undefined;
    this.soffice = undefined;
    this.outer = undefined;
    this.sockets = [];
    bridge?.kill('SIGKILL');
    killGroup(soffice);
    if (outer) removeBox(this.sandbox, outer, sockets);
  }

  /** One soffice for one file, when the UNO bridge is not available. */
  private async convertOnce(input: string, output: string): Promise<void> {
    const outer = this.makeBox();
    const box = boxOf(outer);
    const profileUrl = pathToFileURL(this.seen(box, join(box, 'profile'))).href;
    const inside = join(box, `${this.next++}${extname(input) || '.docx'}`);
    try {
      await this.copyIn(input, inside);
      await new Promise<void>((resolve, reject) => {
        const child = this.spawnConfined(this.options.sofficePath!, [
          ...this.sofficeArgs(profileUrl), '--convert-to', 'pdf', '--outdir', this.seen(box, box), this.seen(box, inside),
        ], box, 'ignore', true, true);
        child.on('error', (error) => reject(error));
        const timer = setTimeout(() => {
          killGroup(child);
          reject(new FileTookTooLongError(`LibreOffice took longer than ${this.options.timeoutMs} ms`));
        }, this.options.timeoutMs);
        child.on('exit', (code) => {
          clearTimeout(timer);
          if (code !== 0) reject(new Error(`soffice exited with ${code}`));
          else resolve();
        });
      });
      await this.copyOut(inside.replace(/\.[^./]+$/, '.pdf'), output);
    } finally {
      removeBox(this.sandbox, outer, this.sandbox.ownFiles ? [] : pipeSockets(this.sandbox.uid, profileUrl));
    }
  }
}
