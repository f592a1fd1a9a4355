import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibreOfficeConverter, libreOfficeSandbox } from '../../src/server/documents/libreoffice.ts';
import { findChromium } from '../../src/server/lib/find-executable.ts';
import { ChromiumPrinter } from '../../src/server/pdf/chromium-printer.ts';
import { TEST_BROWSER_SWITCH } from '../../support/browser.ts';
import { rgbPng } from '../../support/document-fixtures.ts';
import { docxWithPictures, svgShowing } from '../../support/fixtures/sniffed-pictures.ts';
import { pdfImages, pdfText } from '../helpers/pdf-text.ts';
import { descendantsOf } from '../helpers/process-server.ts';

/**
 * The converters read nothing but their own folders and the program files they need,
 * whatever the stripping of documents misses: LibreOffice and Chromium each see a file
 * system of their own (bubblewrap), and an environment without the server's settings and
 * secrets. A Word file that names /etc/hostname, a file in the data folder and one of the
 * server's own files, given to LibreOffice as it is (not stripped), shows none of them.
 */

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find(existsSync);
const CHROMIUM = findChromium(undefined);
const root = process.getuid?.() === 0;
const confined = libreOfficeSandbox().ownFiles;

const IN_DATA = { width: 43, height: 31 }; // a picture in the data folder
const OWN_FILE = { width: 47, height: 37 }; // a picture among the server's own files
const hostname = existsSync('/etc/hostname') ? readFileSync('/etc/hostname', 'utf8').trim() : '';

let dataDir: string;
let ownFile: string;
beforeAll(() => {
  // readable by anyone, as a careless operator's might be: only the confinement keeps them out
  dataDir = mkdtempSync(join(tmpdir(), 'admission-data-'));
  chmodSync(dataDir, 0o755);
  writeFileSync(join(dataDir, 'upload.png'), rgbPng(IN_DATA.width, IN_DATA.height, () => [0, 160, 0]), { mode: 0o644 });
  chmodSync(join(dataDir, 'upload.png'), 0o644);
  // the server's build folder: its own files
  ownFile = resolve('dist', `confinement-probe-${process.pid}.png`);
  writeFileSync(ownFile, rgbPng(OWN_FILE.width, OWN_FILE.height, () => [160, 0, 160]), { mode: 0o644 });
  chmodSync(ownFile, 0o644);
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(ownFile, { force: true });
});

/** A Word file whose SVG pictures name each file (as a stripping miss would let through). */
const naming = () => docxWithPictures('Names three files', [
  { name: 'word/media/image1.svg', bytes: svgShowing('file:///etc/hostname', 53, 41) },
  { name: 'word/media/image2.svg', bytes: svgShowing(`file://${join(dataDir, 'upload.png')}`, IN_DATA.width, IN_DATA.height) },
  { name: 'word/media/image3.svg', bytes: svgShowing(`file://${ownFile}`, OWN_FILE.width, OWN_FILE.height) },
]);

describe.skipIf(!SOFFICE)('LibreOffice reads only its own folder', () => {
  const work = mkdtempSync(join(tmpdir(), 'attack-confinement-'));
  let converter: LibreOfficeConverter;
  beforeAll(() => {
    converter = new LibreOfficeConverter({ sofficePath: SOFFICE, workDir: work, timeoutMs: 120_000 });
  });
  afterAll(() => {
    converter?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('the test is real: a plain soffice shows the data folder\'s picture and the server\'s own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'attack-confinement-plain-'));
    try {
      writeFileSync(join(dir, 'names.docx'), await naming());
      await new Promise<void>((done, fail) => {
        const child = spawn(SOFFICE!, ['--headless', '--norestore', `-env:UserInstallation=file://${dir}/profile`, '--convert-to', 'pdf', '--outdir', dir, join(dir, 'names.docx')], { stdio: 'ignore' });
        child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`soffice exited with ${code}`))));
      });
      const images = pdfImages(readFileSync(join(dir, 'names.pdf')));
      expect(images).toContainEqual(IN_DATA);
      expect(images).toContainEqual(OWN_FILE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf(!confined)('the same file, not stripped, converted: none of them in the PDF', async () => {
    const input = join(work, 'names.docx');
    writeFileSync(input, await naming());
    await converter.convert(input, join(work, 'names.pdf'));
    const pdf = readFileSync(join(work, 'names.pdf'));
    const images = pdfImages(pdf);
    // before: LibreOffice's user read both, as anyone may
    expect(images).not.toContainEqual(IN_DATA);
    expect(images).not.toContainEqual(OWN_FILE);
    const text = pdfText(pdf);
    expect(text).toContain('Names three files');
    if (hostname) expect(text).not.toMatch(new RegExp(`\\b${hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`));
  }, 180_000);
});

/** What a process sees and holds: its root's view of these paths, and its environment's names. */
function viewOf(pid: number, paths: string[]): { seen: string[]; environment: string[] } {
  const seen = paths.filter((path) => existsSync(`/proc/${pid}/root${path}`));
  let environment: string[] = [];
  try {
    environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').map((entry) => entry.split('=')[0]!).filter(Boolean);
  } catch {
    // ended while we looked
  }
  return { seen, environment };
}

const SECRETS = { DATABASE_URL: 'postgres://secret@127.0.0.1/never', SMTP_URL: 'smtp://secret@127.0.0.1:1', WEBHOOK_SECRET: 'whsec_c2VjcmV0' };

describe.skipIf(!CHROMIUM || !root || !confined)('Chromium reads only its own profile', () => {
  it('sees neither /etc/hostname, the data folder nor the server\'s files, and holds none of the server\'s settings', async () => {
    const saved = Object.fromEntries([...Object.keys(SECRETS), 'DATA_DIR'].map((name) => [name, process.env[name]]));
    Object.assign(process.env, SECRETS, { DATA_DIR: dataDir });
    const page = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p class="ready">Printed</p>'));
    await new Promise<void>((done) => page.listen(0, '127.0.0.1', done));
    const commandOf = (pid: number) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        return ''; // ended while we looked
      }
    };
    const chromiumBrowsers = () => descendantsOf(process.pid).filter((pid) => /^\S*chromium\S*\s(?!.*--type=)/.test(commandOf(pid)) && !commandOf(pid).includes(TEST_BROWSER_SWITCH));
    // browsers this worker had before (another file's server that has not closed yet) are not this printer's
    const before = new Set(chromiumBrowsers());
    const printer = new ChromiumPrinter(CHROMIUM);
    try {
      const [pdf] = await printer.print([`http://127.0.0.1:${(page.address() as { port: number }).port}/`], '.ready', 60_000);
      expect(pdfText(pdf!)).toContain('Printed');
      // the printer's warm browser and its processes, still open: not the tests' own, nor any started before it
      const browsers = chromiumBrowsers().filter((pid) => !before.has(pid));
      const processes = browsers.flatMap((pid) => [pid, ...descendantsOf(pid)]);
      expect(browsers.length).toBeGreaterThan(0);
      for (const pid of processes) {
        const { seen, environment } = viewOf(pid, ['/etc/hostname', dataDir, ownFile, process.cwd()]);
        expect(seen, `pid ${pid} ${commandOf(pid).slice(0, 80)}`).toEqual([]);
        for (const name of [...Object.keys(SECRETS), 'DATA_DIR']) expect(environment, `pid ${pid}`).not.toContain(name);
      }
    } finally {
      await printer.close();
      page.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 120_000);
});
