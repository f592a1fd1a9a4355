import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confinedView, programFolders } from '../lib/file-confinement.ts';

/**
 * Chromium refuses its sandbox when it runs as root. For a server that runs as root, this
 * writes a launcher that starts Chromium as an unprivileged user instead (setpriv, no new
 * privileges), where its sandbox works: the profile folder Playwright made (as root) is
 * handed to that user first. `runAs` is the setpriv command that switches the user.
 *
 * With `confined` (bubblewrap works here), Chromium also sees a file system of its own: the
 * read-only program files it needs, a private /tmp and /dev/shm, and its profile as
 * PROFILE_INSIDE; not the data folder, the server's files or the machine's settings
 * (lib/file-confinement.ts).
 */
const launchers = new Map<string, string>();

/** Where the profile Playwright made is, inside Chromium's own file system. */
const PROFILE_INSIDE = '/run/chromium-profile';

export function unprivilegedChromium(executablePath: string, runAs: string[], user: { uid: number; gid: number }, confined = false): string {
  const key = JSON.stringify([executablePath, runAs, user.uid, user.gid, confined]);
  const known = launchers.get(key);
  if (known) return known;
  const folder = mkdtempSync(join(tmpdir(), 'chromium-launcher-'));
  const launcher = join(folder, 'chromium');
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  const view = confined ? confinedView({ readable: programFolders(executablePath).map((path) => ({ path })) }) : [];
  writeFileSync(launcher, [
    '#!/bin/sh',
    'profile=""',
    // confined, the profile is seen at PROFILE_INSIDE: the argument that names it is rewritten
    'for arg do',
    '  shift',
    '  case "$arg" in',
    `    --user-data-dir=*) profile="\${arg#--user-data-dir=}"; ${confined ? `set -- "$@" ${quote(`--user-data-dir=${PROFILE_INSIDE}`)}` : 'set -- "$@" "$arg"'} ;;`,
    '    *) set -- "$@" "$arg" ;;',
    '  esac',
    'done',
    `[ -n "$profile" ] && chown -R ${user.uid}:${user.gid} "$profile"`,
    // its home is the profile: the unprivileged user may write nowhere else
    confined
      ? `[ -n "$profile" ] || exit 64\nHOME=${PROFILE_INSIDE} exec ${view.slice(0, -1).map(quote).join(' ')} --perms 0755 --dir /run --bind "$profile" ${PROFILE_INSIDE} -- ${runAs.map(quote).join(' ')} ${quote(executablePath)} "$@"`
      : `HOME="\${profile:-/nonexistent}" exec ${runAs.map(quote).join(' ')} ${quote(executablePath)} "$@"`,
    '',
  ].join('\n'), { mode: 0o700 });
  chmodSync(launcher, 0o700);
  launchers.set(key, launcher); // one per process: each printer's launch reuses it
  return launcher;
}
