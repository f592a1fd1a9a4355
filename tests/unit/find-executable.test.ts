import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from '../../src/server/lib/find-executable.ts';

describe('the PDF copy finds its Chromium', () => {
  let dir: string;
  let savedPath: string | undefined;
  const install = (name: string) => {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'find-chromium-'));
    savedPath = process.env.PATH;
    process.env.PATH = dir;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    rmSync(dir, { recursive: true, force: true });
  });

  it("prefers the headless shell, which builds no browser window for each print, to the full browser", () => {
    install('chromium');
    install('chromium-headless-shell');
    expect(findChromium(undefined)).toBe(join(dir, 'chromium-headless-shell'));
  });

  it('takes the full browser where the headless shell is not installed', () => {
    install('chromium');
    expect(findChromium(undefined)).toBe(join(dir, 'chromium'));
  });

  it('takes CHROMIUM_PATH as it is, and nothing when it cannot run', () => {
    install('chromium-headless-shell');
    install('my-chromium');
    expect(findChromium(join(dir, 'my-chromium'))).toBe(join(dir, 'my-chromium'));
    writeFileSync(join(dir, 'not-executable'), '');
    expect(findChromium(join(dir, 'not-executable'))).toBeUndefined();
  });
});
