import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import previewText from '../../preview/preview-text.json';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The staff preview (`npm run preview`) is a development server for whoever edits
 * schemas/: the production build leaves it out and the production server has no
 * address that serves it, so applicants can never reach it.
 */
const clientDir = resolve(import.meta.dirname, '..', '..', 'dist', 'client');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the staff preview in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is not in the built client', () => {
    const files = filesUnder(clientDir);
    expect(files.some((file) => file.endsWith(join('.vite', 'manifest.json')))).toBe(true);
    expect(files.filter((file) => /preview/i.test(file.slice(clientDir.length)))).toEqual([]);
    const carrying = files.filter((file) => /\.(js|html|css|json)$/.test(file) && readFileSync(file, 'utf8').includes(previewText.title));
    expect(carrying).toEqual([]);
  });

  it('has no address on the production server', async () => {
    for (const url of ['/preview/', '/preview/index.html', '/preview/main.tsx', '/preview/preview-text.json', '/__schema-preview/check', '/support/fixtures/sample-applicants.ts']) {
      const reply = await server.app.inject({ method: 'GET', url });
      // an unknown address is the app's own page (its router says "not found") or a 404, never the preview
      expect(reply.body, url).not.toContain(previewText.title);
      expect(reply.body, url).not.toContain('preview/main.tsx');
      expect(reply.body, url).not.toContain('"formBuilt"');
      expect(reply.headers['content-type'] ?? '', url).not.toMatch(/javascript|typescript/);
    }
  });
});
