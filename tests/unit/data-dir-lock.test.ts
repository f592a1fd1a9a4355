import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUse, dataDirHolder, lockDataDir, type LockHolder } from '../../src/server/lib/data-dir-lock.ts';

/** DATA_DIR's lock: one holder at a time, and a holder that died does not keep it. */
describe('the data directory lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const lockFile = () => join(dir, 'lock');
  const leave = (holder: Partial<LockHolder>) => writeFileSync(lockFile(), JSON.stringify({
    host: hostname(), identity: null, role: 'server', name: 'the server (npm start)', since: '2026-11-27T08:00:00.000Z', ...holder,
  }));
  /** a pid that surely ran and ended */
  const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

  it('names its holder in a file only its user reads, refuses a second holder, and is gone once released', () => {
    const lock = lockDataDir(dir, { role: 'server', name: 'the server (npm start)' });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, role: 'server', host: hostname() });
    expect(statSync(lockFile()).mode & 0o777).toBe(0o600);
    expect(dataDirHolder(dir)).toMatchObject({ pid: process.pid });
    expect(() => lockDataDir(dir, { role: 'command', name: 'npm run service-link' })).toThrow(DataDirInUse);
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    expect(dataDirHolder(dir)).toBeUndefined();
    lockDataDir(dir, { role: 'command', name: 'npm run service-link' }).release();
  });

  it('refuses while the process it names runs, saying who it is and what to do', () => {
    leave({ pid: process.ppid, role: 'command', name: 'npm run import:lookups' });
    expect(() => lockDataDir(dir, { role: 'server', name: 'the server (npm start)' }))
      .toThrow(new RegExp(`in use by npm run import:lookups \\(pid ${process.ppid}, since 2026-11-27T08:00:00.000Z\\).*Wait for it to finish`));
    expect(readFileSync(lockFile(), 'utf8')).toContain('import:lookups');
  });

  it('takes over the lock of a process that died (killed, or the machine stopped)', () => {
    leave({ pid: deadPid() });
    const lock = lockDataDir(dir, { role: 'server', name: 'the server (npm start)' });
    expect(JSON.parse(readFileSync(lockFile(), 'utf8')).pid).toBe(process.pid);
    // nothing of the stale one is left beside it
    expect(readdirSync(dir)).toEqual(['lock']);
    lock.release();
  });

  it.runIf(existsSync('/proc/self/stat'))('takes over a lock whose pid the system gave to another process since', () => {
    // the parent runs, but it is not the process that took the lock (another boot, another start)
    leave({ pid: process.ppid, identity: '00000000-0000-0000-0000-000000000000:1' });
    const lock = lockDataDir(dir, { role: 'server', name: 'the server (npm start)' });
    lock.release();
  });

  it('takes over a lock naming this very process when this process does not hold it (a restarted container, pid 1 again)', () => {
    leave({ pid: process.pid });
    lockDataDir(dir, { role: 'server', name: 'the server (npm start)' }).release();
  });

  it('cannot tell whether a process on another machine runs: refuses and says how to clear it', () => {
    leave({ pid: process.pid, host: 'other-machine' });
    expect(() => lockDataDir(dir, { role: 'server', name: 'the server (npm start)' })).toThrow(/on other-machine.*remove .*lock/s);
  });
});
