/**
 * The Orca screen reader reading a headful Chromium on a virtual display, with no audio:
 * what Orca says is read from its debug log (`SPEECH OUTPUT: '...'` lines). Built on the
 * team's notes in ../shared/tools/screen-reader/: no speech server (speech-dispatcher with
 * no audio device hangs Orca at its second utterance), a copy of Orca that writes its log
 * line by line, Debian's /usr/bin/python3 (pyatspi is a Debian package). Unlike that
 * script it takes a display number the X server picks (`-displayfd`), so two runs on one
 * machine never read each other's browser, and it is stopped by the process ids it started.
 *
 * Orca hears only real X key events: keys go through xdotool, not Playwright.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_PATH } from './browser.ts';
import { until } from './until.ts';

/** The Debian packages it needs; `screenReaderMissing()` names those not installed. */
export const SCREEN_READER_PACKAGES = ['orca', 'xvfb', 'dbus-x11', 'at-spi2-core', 'xdotool'] as const;

const NEEDED: Record<(typeof SCREEN_READER_PACKAGES)[number], string> = {
  orca: '/usr/bin/orca',
  xvfb: '/usr/bin/Xvfb',
  'dbus-x11': '/usr/bin/dbus-launch',
  'at-spi2-core': '/usr/libexec/at-spi-bus-launcher',
  xdotool: '/usr/bin/xdotool',
};

export function screenReaderMissing(): string[] {
  return SCREEN_READER_PACKAGES.filter((pkg) => !existsSync(NEEDED[pkg]));
}

/** One line of Orca's log that matters here, in the order Orca wrote it. */
export interface LogEntry {
  kind: 'speech' | 'focus' | 'say-all-end' | 'say-all-item';
  text: string;
}

const SPEECH = /SPEECH OUTPUT: '(.*)' ?(?:\{'established'.*)?$/;
const FOCUS = /EVENT MANAGER: locusOfFocus: (\[.*?\]) activeScript/;
const SAY_ALL_ITEM = /WEB SAY ALL: (\[.*?\]) '(.*)' \((\d+-\d+), current/;

function entriesOf(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  // a no-break space is spoken as a space
  for (const line of text.replace(/\u00a0/g, ' ').split('\n')) {
    const speech = SPEECH.exec(line);
    if (speech) entries.push({ kind: 'speech', text: speech[1]!.replace(/\\'/g, "'") });
    else if (line.includes('WEB: textLines complete')) entries.push({ kind: 'say-all-end', text: '' });
    else {
      const focus = FOCUS.exec(line);
      if (focus) entries.push({ kind: 'focus', text: focus[1]! });
      const item = SAY_ALL_ITEM.exec(line);
      if (item) entries.push({ kind: 'say-all-item', text: `${item[1]} (${item[3]}) ${item[2]}` });
    }
  }
  return entries;
}

function started(command: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(command, args, options);
  child.on('error', () => undefined); // a missing program is reported by screenReaderMissing()
  return child;
}

export class ScreenReader {
  private constructor(
    private readonly dir: string,
    readonly env: Record<string, string>,
    private readonly processes: ChildProcess[],
  ) {}

  /** Starts the display, the buses and Orca; resolves once Orca has said it is on. */
  static async start(): Promise<ScreenReader> {
    const missing = screenReaderMissing();
    if (missing.length) throw new Error(`the screen reader needs these Debian packages: ${missing.join(' ')}`);
    const dir = mkdtempSync(join(tmpdir(), 'screen-reader-'));
    const processes: ChildProcess[] = [];
    try {
      // the X server writes the display it took on file descriptor 3
      const xvfb = started('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
      processes.push(xvfb);
      let displayText = '';
      xvfb.stdio[3]!.on('data', (chunk: Buffer) => { displayText += chunk.toString(); });
      const display = `:${await until(async () => (/^\d+\n/.test(displayText) ? displayText.trim() : undefined), 'the virtual display', 20_000)}`;
      const bus = spawnSync('dbus-launch', ['--sh-syntax'], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' });
      const address = /DBUS_SESSION_BUS_ADDRESS='([^']+)'/.exec(bus.stdout)?.[1];
      const busPid = Number(/DBUS_SESSION_BUS_PID=(\d+)/.exec(bus.stdout)?.[1]);
      if (!address || !busPid) throw new Error(`dbus-launch: ${bus.stderr || bus.stdout}`);
      const env = { DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: address, ACCESSIBILITY_ENABLED: '1' };
      const reader = new ScreenReader(dir, env, processes);
      reader.busPid = busPid;
      const withEnv = { ...process.env, ...env };
      processes.push(started('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately'], { env: withEnv, stdio: 'ignore' }));
      // Orca's debug file is block-buffered: a copy of /usr/bin/orca that opens it line by line
      const orca = readFileSync('/usr/bin/orca', 'utf8').replace(
        "debug.debugFile = open(args.debug_file, 'w')", "debug.debugFile = open(args.debug_file, 'w', buffering=1)");
      writeFileSync(join(dir, 'orca-run.py'), orca);
      reader.writePreferences();
      processes.push(started('/usr/bin/python3', [join(dir, 'orca-run.py'), '--replace', '-u', join(dir, 'prefs'), '--debug-file', reader.logFile],
        { env: withEnv, stdio: 'ignore', detached: true }));
      await until(async () => (reader.entries(0).some((entry) => entry.kind === 'speech') ? true : undefined), 'Orca to start speaking', 60_000);
      return reader;
    } catch (error) {
      for (const child of processes) child.kill();
      throw error;
    }
  }

  private busPid = 0;

  get logFile(): string {
    return join(this.dir, 'orca-debug.out');
  }

  /**
   * Orca's settings: no speech server (it still logs what it would say), no Say All on
   * load (a check starts Say All itself with KP_Add, so a Tab walk is not drowned).
   * Orca reads the settings it does not find here from its defaults.
   */
  private writePreferences(): void {
    const prefs = join(this.dir, 'prefs');
    spawnSync('mkdir', ['-p', prefs]);
    writeFileSync(join(prefs, 'orca-customizations.py'),
      'import orca.settings\norca.settings.speechFactoryModules = []\norca.settings.speechServerFactory = "nullspeech"\n');
    const general = { speechServerFactory: 'nullspeech', speechFactoryModules: [], sayAllOnLoad: false, enableSpeech: true, enableTutorialMessages: false };
    writeFileSync(join(prefs, 'user-settings.conf'), JSON.stringify({ general, profiles: { default: { profile: ['Default', 'default'] } }, pronunciations: {}, keybindings: {} }, null, 1));
  }

  /** Chromium with a window on the virtual display, its accessibility tree given to Orca. */
  launchBrowser(): Promise<Browser> {
    return chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: false,
      env: { ...process.env, ...this.env },
      args: ['--force-renderer-accessibility', '--no-sandbox', '--no-first-run', '--disable-gpu', '--window-position=0,0', '--window-size=1280,1000'],
    });
  }

  /** Real key presses, as a person makes them (`Tab`, `shift+Tab`, `KP_Add`). */
  key(...keys: string[]): void {
    const result = spawnSync('xdotool', ['key', '--clearmodifiers', ...keys], { env: { ...process.env, ...this.env } });
    if (result.status !== 0) throw new Error(`xdotool key ${keys.join(' ')}: ${result.stderr.toString()}`);
  }

  /** Text typed key by key, as a person types it. */
  type(text: string): void {
    const result = spawnSync('xdotool', ['type', '--delay', '40', text], { env: { ...process.env, ...this.env } });
    if (result.status !== 0) throw new Error(`xdotool type: ${result.stderr.toString()}`);
  }

  /** A pointer click at a point of the screen (the browser's window starts at 0,0). */
  click(x: number, y: number): void {
    const result = spawnSync('xdotool', ['mousemove', String(Math.round(x)), String(Math.round(y)), 'click', '1'], { env: { ...process.env, ...this.env } });
    if (result.status !== 0) throw new Error(`xdotool click: ${result.stderr.toString()}`);
  }

  /** Where the log stands: what Orca says next is read from here. */
  mark(): number {
    return existsSync(this.logFile) ? readFileSync(this.logFile).length : 0;
  }

  entries(since: number): LogEntry[] {
    if (!existsSync(this.logFile)) return [];
    return entriesOf(readFileSync(this.logFile).subarray(since).toString('utf8'));
  }

  /** The raw log from a mark, to read why Orca did something. */
  log(since: number): string {
    return readFileSync(this.logFile).subarray(since).toString('utf8');
  }

  /** Waits until Orca has written nothing for `quietMs`, and returns what it logged meanwhile. */
  async quiet(since: number, quietMs = 1000, ceilingMs = 30_000): Promise<LogEntry[]> {
    const deadline = Date.now() + ceilingMs;
    let size = this.mark();
    let still = Date.now();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = this.mark();
      if (now !== size) { size = now; still = Date.now(); }
      if (Date.now() - still >= quietMs || Date.now() > deadline) return this.entries(since);
    }
  }

  async stop(): Promise<void> {
    for (const child of [...this.processes].reverse()) {
      // Orca runs in a session of its own (detached): its group is stopped with it
      if (child.pid && child.spawnargs.some((arg) => arg.endsWith('orca-run.py'))) {
        try { process.kill(-child.pid); } catch { /* already gone */ }
      } else child.kill();
    }
    if (this.busPid) { try { process.kill(this.busPid); } catch { /* already gone */ } }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
