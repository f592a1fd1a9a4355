import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import frame from '../../schemas/text/frame.json';
import { openPage } from '../../support/browser.ts';
import { workerBrowser } from '../helpers/worker-browser.ts';

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

let child: ChildProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'quick-start-'));

afterAll(() => {
  if (child?.pid) process.kill(-child.pid, 'SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the README Quick start', () => {
  it('`npm start` serves the app on the embedded database and prints its URL', async () => {
    const port = await freePort();
    child = spawn('npm', ['start'], {
      cwd: resolve(import.meta.dirname, '..', '..'),
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed:\n${output}`)), 90_000);
      child!.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /running at (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          done(match[1]!);
        }
      });
      child!.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child!.on('exit', (code) => fail(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    expect(url).toBe(`http://localhost:${port}`);
    expect(output).toContain('embedded PGlite');
    // on the project's own Node.js (the lockfile's `node` package), whatever the machine has
    const lock = JSON.parse(readFileSync(resolve(import.meta.dirname, '..', '..', 'package-lock.json'), 'utf8'));
    expect(output).toContain(`Node.js v${lock.packages['node_modules/node'].version}`);

    const context = await (await workerBrowser()).newContext();
    try {
      const { page, problems } = await openPage(context);
      await page.goto(url);
      await page.waitForURL(`${url}/about`);
      await page.getByRole('heading', { level: 1, name: 'About You' }).waitFor();
      await page.getByRole('navigation', { name: frame.steps_label }).waitFor();
      await page.getByRole('button', { name: frame.footer.help }).waitFor();
      expect(problems.errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
