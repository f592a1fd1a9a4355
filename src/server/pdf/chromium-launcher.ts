import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Chromium refuses its sandbox when it runs as root. For a server that runs as root, this
 * writes a launcher that starts Chromium as an unprivileged user instead (setpriv, no new
 * privileges), where its sandbox works: the profile folder Playwright made (as root) is
 * handed to that user first. `runAs` is the setpriv command that switches the user.
 */
const launchers = new Map<string, string>();

export function unprivilegedChromium(executablePath: string, runAs: string[], user: { uid: number; gid: number }): string {
  const key = JSON.stringify([executablePath, runAs, user.uid, user.gid]);
  const known = launchers.get(key);
  if (known) return known;
  const folder = mkdtempSync(join(tmpdir(), 'chromium-launcher-'));
  const launcher = join(folder, 'chromium');
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  writeFileSync(launcher, [
    '#!/bin/sh',
    'profile=""',
    'for arg do',
    '  case "$arg" in --user-data-dir=*) profile="${arg#--user-data-dir=}" ;; esac',
    'done',
    `[ -n "$profile" ] && chown -R ${user.uid}:${user.gid} "$profile"`,
    // its home is the profile: the unprivileged user may write nowhere else
    `HOME="\${profile:-/nonexistent}" exec ${runAs.map(quote).join(' ')} ${quote(executablePath)} "$@"`,
    '',
  ].join('\n'), { mode: 0o700 });
  chmodSync(launcher, 0o700);
  launchers.set(key, launcher); // one per process: each printer's launch reuses it
  return launcher;
}
