import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onSettledSchemaChange } from '../../scripts/vite/settled-schema-change.ts';

/** The one part of Vite's server the module uses: its file watcher. */
function fakeServer() {
  const watcher = Object.assign(new EventEmitter(), { add: () => watcher });
  return { server: { watcher } as unknown as ViteDevServer, watcher };
}

/** Lets the settling time pass on the fake clock, and the runs it starts begin. */
const settle = () => vi.advanceTimersByTimeAsync(1_000);

describe('a settled schema change', () => {
  const dirs: string[] = [];
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => {
    vi.useRealTimers();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads the whole save when the file system reported only its truncation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settled-'));
    dirs.push(dir);
    const file = join(dir, 'schemas', 'about.schema.json');
    mkdirSync(join(dir, 'schemas'));
    const { server, watcher } = fakeServer();
    const read: string[] = [];
    onSettledSchemaChange(server, async () => { read.push(readFileSync(file, 'utf8')); });
    writeFileSync(file, '');
    watcher.emit('change', file); // the truncation is reported, the write that follows is not
    writeFileSync(file, '{"title":"Legal Given Name"}');
    expect(read).toEqual([]);
    await settle();
    expect(read).toEqual(['{"title":"Legal Given Name"}']);
  });

  it('never overlaps runs, and a save made during a run starts one more run after it', async () => {
    const { server, watcher } = fakeServer();
    const runs: string[][] = [];
    let running = 0;
    let overlapped = false;
    let release!: () => void;
    onSettledSchemaChange(server, async (paths) => {
      runs.push(paths);
      running += 1;
      overlapped ||= running > 1;
      await new Promise<void>((resolve) => { release = resolve; });
      running -= 1;
    });
    watcher.emit('change', 'schemas/pages/about.schema.json');
    watcher.emit('change', 'schemas/pages/about.ui.json');
    await settle();
    expect(runs.length).toBe(1);
    watcher.emit('change', 'schemas/options/states.json');
    await settle(); // the first run is still going
    expect(runs.length).toBe(1);
    release();
    await settle();
    expect(runs.length).toBe(2);
    release();
    expect(overlapped).toBe(false);
    expect(runs).toEqual([['schemas/pages/about.schema.json', 'schemas/pages/about.ui.json'], ['schemas/options/states.json']]);
  });

  it('ignores files outside schemas/ and files that are not JSON', async () => {
    const { server, watcher } = fakeServer();
    const runs: string[][] = [];
    onSettledSchemaChange(server, async (paths) => { runs.push(paths); });
    watcher.emit('change', 'src/client/start.tsx');
    watcher.emit('change', 'schemas/README.md');
    watcher.emit('add', 'schemas/pages/new.schema.json');
    await settle();
    expect(runs).toEqual([['schemas/pages/new.schema.json']]);
  });
});
