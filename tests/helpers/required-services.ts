import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { screenReaderMissing } from '../../support/screen-reader.ts';

/**
 * The services the server and end-to-end tests drive, and whether this machine has them.
 * A test that needs one it lacks is skipped where a developer runs the suite; in CI
 * (CI=true) a missing PostgreSQL or LibreOffice fails the run at once instead, so a green
 * CI run always means those tests ran. The skip summary (skip-summary-reporter.ts) says
 * what a local run left out and why.
 */
export interface Service {
  /** what the tests lose without it */
  readonly what: string;
  readonly available: boolean;
  /** how to get it, for the summary and the CI failure */
  readonly missing: string;
  /** CI fails without it */
  readonly requiredInCi: boolean;
}

const onDisk = (paths: string[]) => paths.find((path) => existsSync(path));
const soffice = onDisk(['/usr/bin/soffice', '/usr/bin/libreoffice']);
const chromium = onDisk([process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', '/usr/bin/chromium-browser']);
const uno = spawnSync('/usr/bin/python3', ['-c', 'import uno'], { stdio: 'ignore' }).status === 0;

export const services = {
  postgres: {
    what: 'the PostgreSQL half of every database-backed test, and the tests of two servers on one database',
    available: Boolean(process.env.TEST_DATABASE_URL),
    missing: 'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test)',
    requiredInCi: true,
  },
  libreOffice: {
    what: 'Word files converted by a real LibreOffice',
    available: Boolean(soffice && uno),
    missing: soffice ? 'python3-uno is not installed' : 'LibreOffice is not installed (libreoffice-writer-nogui, python3-uno)',
    requiredInCi: true,
  },
  chromium: {
    what: 'the PDF copy printed by Chromium',
    available: Boolean(chromium),
    missing: 'Chromium is not installed (chromium)',
    requiredInCi: false,
  },
  screenReader: {
    what: 'the Orca screen reader reading About You through, by Say All and by Tab',
    available: screenReaderMissing().length === 0,
    missing: `the screen reader's Debian packages are not installed (${screenReaderMissing().join(' ') || 'none'})`,
    requiredInCi: false,
  },
  root: {
    what: 'LibreOffice run as another user, which only root can arrange',
    available: process.getuid?.() === 0,
    missing: 'the tests do not run as root',
    requiredInCi: false,
  },
} satisfies Record<string, Service>;

export const SOFFICE_PATH = soffice;
export const CHROMIUM_PATH = chromium;

export const inCi = () => process.env.CI === 'true' || process.env.CI === '1';

/** The services this machine lacks, as lines for a reader. */
export function missingServices(): string[] {
  return Object.values(services).filter((service) => !service.available).map((service) => `${service.missing}: not run: ${service.what}`);
}

/** Vitest global set-up of the server and e2e lanes: in CI, no skipping for want of PostgreSQL or LibreOffice. */
export default function setup(): void {
  if (!inCi()) return;
  const missing = Object.values(services).filter((service) => service.requiredInCi && !service.available);
  if (missing.length > 0) {
    throw new Error(`CI=true, and the tests would skip what needs these:\n${missing.map((service) => `- ${service.missing} (${service.what})`).join('\n')}`);
  }
}
