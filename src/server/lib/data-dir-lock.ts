import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * The embedded database is one process's alone: PGlite keeps its pages in that process's
 * memory, so a second process opening the same folder writes over the first's pages, and
 * both corrupt the database with no error. Whoever opens DATA_DIR's database (the server,
 * or an office command when no server runs) holds DATA_DIR/lock for as long as it has it open.
 *
 * Like PostgreSQL's postmaster.pid: a file made atomically (written aside, then linked into
 * place, which fails if one is there), naming its holder. Node has no flock(), so a holder
 * that was killed (SIGKILL, power cut) leaves its file behind; the next opener sees that
 * the process it names is gone and takes the lock over. "Gone" is decided by the process's
 * identity, not its pid alone: on Linux the boot and the process's start time are recorded,
 * so a pid the system gave again to another process (pid 1 in a restarted container) does
 * not keep a dead server's lock alive.
 */
export const LOCK_FILE = 'lock';

export interface LockHolder {
  pid: number;
  host: string;
  /** boot id and start time of the process (Linux); null where the system does not tell */
  identity: string | null;
  /** 'server': answers the office's commands on its admin channel; 'command': an office command running alone */
  role: 'server' | 'command';
  /** what holds it, as the office would name it: `npm start`, `npm run service-link` */
  name: string;
  since: string;
}

export class DataDirInUse extends Error {
  constructor(readonly dataDir: string, readonly holder: LockHolder) {
    super(inUseMessage(dataDir, holder));
    this.name = 'DataDirInUse';
  }
}

function inUseMessage(dataDir: string, holder: LockHolder): string {
  const who = `${holder.name} (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`;
  const head = `The embedded database in ${dataDir} is in use by ${who}; a second process opening it would corrupt it.`;
  if (holder.host !== hostname()) {
    return `${head} That process runs on another machine, so it cannot be checked from here: if it has surely stopped, remove ${join(dataDir, LOCK_FILE)}.`;
  }
  return holder.role === 'server'
    ? `${head} Stop that server first, or give this one another DATA_DIR (or DATABASE_URL).`
    : `${head} Wait for it to finish, then try again.`;
}

export interface DataDirLock {
  readonly holder: LockHolder;
  /** Gives the lock up (only if the file is still this lock's own). */
  release(): void;
}

/** Locks held by this process: a second open of the same folder in one process is refused too. */
const heldHere = new Map<string, { holder: LockHolder; release(): void }>();
let releasedAtExit = false;

/** The process's identity: this boot, and the process's start time in clock ticks since boot (Linux /proc). */
function identityOf(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces and parentheses); starttime is field 22
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return startTime ? `${boot}:${startTime}` : null;
  } catch {
    return null;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names still runs (a holder on another machine is assumed to). */
function isLive(holder: LockHolder, lockPath: string): boolean {
  if (holder.host !== hostname()) return true;
  if (heldHere.has(lockPath)) return true;
  if (holder.pid === process.pid) return false; // not held here: a dead process's pid, now ours (PostgreSQL's rule)
  if (!processExists(holder.pid)) return false;
  if (holder.identity === null) return true;
  const now = identityOf(holder.pid);
  return now === null || now === holder.identity;
}

function readHolder(lockPath: string): { holder: LockHolder | undefined; inode: number } | undefined {
  try {
    const inode = statSync(lockPath).ino;
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockHolder>;
    const valid = typeof parsed.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.name === 'string';
    return { holder: valid ? parsed as LockHolder : undefined, inode };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SyntaxError) return { holder: undefined, inode: statSync(lockPath).ino };
    throw error;
  }
}

/**
 * Removes the stale lock file with this inode, and nothing else: it is moved aside first,
 * and if another process had meanwhile put its own lock there, that one is put back.
 */
function removeStale(lockPath: string, inode: number): void {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (statSync(aside).ino !== inode) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // yet another process locked it meanwhile: theirs stands
    }
  }
  unlinkSync(aside);
}

/** The live holder of DATA_DIR's lock, if any. */
export function dataDirHolder(dataDir: string): LockHolder | undefined {
  const lockPath = join(dataDir, LOCK_FILE);
  const found = readHolder(lockPath);
  return found?.holder && isLive(found.holder, lockPath) ? found.holder : undefined;
}

/**
 * Takes DATA_DIR's lock, or throws DataDirInUse naming the live process that holds it.
 * The folder must exist. Released by release(), or when this process exits normally.
 */
export function lockDataDir(dataDir: string, who: Pick<LockHolder, 'role' | 'name'>): DataDirLock {
  const lockPath = join(dataDir, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid, host: hostname(), identity: identityOf(process.pid), role: who.role, name: who.name, since: new Date().toISOString(),
  };
  const here = heldHere.get(lockPath);
  if (here) throw new DataDirInUse(dataDir, here.holder);
  for (let attempt = 0; attempt < 10; attempt++) {
    const draft = `${lockPath}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' });
    let taken = false;
    try {
      linkSync(draft, lockPath);
      taken = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
    if (taken) return held(lockPath, holder);
    const found = readHolder(lockPath);
    if (!found) continue; // released meanwhile
    if (found.holder && isLive(found.holder, lockPath)) throw new DataDirInUse(dataDir, found.holder);
    removeStale(lockPath, found.inode);
  }
  throw new Error(`could not take ${lockPath}: other processes keep taking it`);
}

function held(lockPath: string, holder: LockHolder): DataDirLock {
  const inode = statSync(lockPath).ino;
  const lock = {
    holder,
    release: () => {
      if (heldHere.get(lockPath) !== lock) return;
      heldHere.delete(lockPath);
      try {
        if (statSync(lockPath).ino === inode) unlinkSync(lockPath);
      } catch {
        // gone already
      }
    },
  };
  heldHere.set(lockPath, lock);
  if (!releasedAtExit) {
    releasedAtExit = true;
    // an exception that ends the process still gives its locks up; a SIGKILL leaves them stale
    process.on('exit', () => {
      for (const each of [...heldHere.values()]) each.release();
    });
  }
  return lock;
}
