import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * What a converter (LibreOffice, Chromium) may read: a file system of its own (bubblewrap,
 * `bwrap`, Debian's `bubblewrap`) holding only the read-only program files it needs and the
 * folders it works in, so that a document that names `file:///etc/hostname`, the data folder
 * or the server's own files finds none of them, whatever the stripping of documents misses.
 * Where bwrap is missing or not allowed, the converters see the whole file system (as their
 * user may), and the server says so once (the weaker mode: see docs/security.md).
 */

/** The system's read-only parts a converter needs: its programs and libraries, and a few settings. */
const SYSTEM = ['/usr'];
/** Top-level names that are links into /usr on a merged-/usr system (a folder of their own elsewhere). */
const TOP_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/**
 * The settings they read: fonts, the dynamic linker's cache, the time zone, LibreOffice's
 * registry and Chromium's policies, and the user and group lists (LibreOffice looks itself up
 * to name its UNO pipe and make it its user's alone, 0700; unknown, it makes it 0777). Not
 * /etc as a whole: it names the machine and its services.
 */
const SETTINGS = [
  '/etc/fonts', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime', '/etc/libreoffice', '/etc/chromium',
  '/etc/passwd', '/etc/group', '/etc/nsswitch.conf',
];

export interface FileView {
  /** host folders the process writes in, each at its own path unless `at` says where */
  writable?: { path: string; at?: string }[];
  /** host files or folders it only reads, at their own path unless `at` says where */
  readable?: { path: string; at?: string }[];
  /** a private /tmp (a tmpfs) unless a writable folder is mounted there */
  privateTmp?: boolean;
  /** the working folder inside (default: /tmp) */
  chdir?: string;
}

/** The bwrap arguments (up to and including `--`) that run a command with only `view` and the system's read-only parts. */
export function confinedView(view: FileView): string[] {
  const args = ['bwrap', '--die-with-parent'];
  // every folder bwrap makes on the way to a mount point is made 0755 here: it would make
  // them with the server's umask (0700), and the converter's own user could not pass
  const made = new Set(['/', '/usr', '/etc', '/proc', '/dev', '/dev/shm', '/tmp']);
  const parentsOf = (target: string) => {
    const parts = target.split('/').filter(Boolean).slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = `/${parts.slice(0, depth).join('/')}`;
      if (made.has(folder) || SYSTEM.some((system) => folder.startsWith(`${system}/`))) continue;
      made.add(folder);
      args.push('--perms', '0755', '--dir', folder);
    }
  };
  for (const path of SYSTEM) if (existsSync(path)) args.push('--ro-bind', path, path);
  for (const path of TOP_LINKS) {
    if (!existsSync(path)) continue;
    const link = lstatSync(path).isSymbolicLink();
    args.push(...(link ? ['--symlink', readlinkSync(path), path] : ['--ro-bind', path, path]));
  }
  // folders bwrap makes itself would be the server's umask (0700): others could not pass
  args.push('--perms', '0755', '--dir', '/etc');
  for (const path of SETTINGS) if (existsSync(path)) args.push('--ro-bind', path, path);
  args.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--tmpfs', '/dev/shm');
  const mountsTmp = (view.writable ?? []).some((item) => item.at === '/tmp');
  if (view.privateTmp !== false && !mountsTmp) args.push('--perms', '1777', '--tmpfs', '/tmp');
  for (const item of view.writable ?? []) {
    parentsOf(item.at ?? item.path);
    args.push('--bind', item.path, item.at ?? item.path);
  }
  for (const item of view.readable ?? []) {
    parentsOf(item.at ?? item.path);
    args.push('--ro-bind', item.path, item.at ?? item.path);
  }
  args.push('--chdir', view.chdir ?? '/tmp', '--');
  return args;
}

/**
 * A program outside the system's folders (an operator's SOFFICE_PATH, the tests' stand-ins)
 * needs its own folder in the view, and the folder of whatever runs it there (Node.js, for a
 * stand-in script): read-only. A system program (Debian's LibreOffice and Chromium) needs
 * neither: Node.js, which the npm registry's package puts inside the project's folder, is
 * then not in its view, nor is any part of that folder's path.
 */
export function programFolders(program: string): string[] {
  const folders = new Set<string>();
  for (const path of [program, realpathOr(program)]) {
    if (!SYSTEM.some((system) => path.startsWith(`${system}/`))) folders.add(dirname(path));
  }
  const node = realpathOr(process.execPath);
  if (folders.size && !SYSTEM.some((system) => node.startsWith(`${system}/`))) folders.add(dirname(node));
  return [...folders];
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

let works: boolean | undefined;

/** Whether bwrap runs here (installed, and the kernel lets it make a mount namespace): asked once per process. */
export function fileConfinementWorks(): boolean {
  if (works !== undefined) return works;
  const command = [...confinedView({}), '/bin/true'];
  works = spawnSync(command[0]!, command.slice(1), { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return works;
}
