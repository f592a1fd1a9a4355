import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/test-server.ts';

/**
 * The first visit: the built client goes out precompressed (the .br or .gz the
 * build wrote, as the browser accepts) and hashed assets are cached for good; the HTML of
 * each page route names what that route needs (its lazy chunks, and a signed-in
 * applicant's profile reads) so the browser fetches them before any script runs.
 * A small build of our own in a temporary folder, so a build running beside the test cannot change it.
 */

const script = `export const text = ${JSON.stringify('first visit '.repeat(200))};\n`;
const html = '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-e1.js"></script></head><body></body></html>';
const manifest = {
  'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_core-c1.js'], dynamicImports: ['src/client/app/FormPageRoute.tsx'] },
  '_core-c1.js': { file: 'assets/core-c1.js' },
  'src/client/start.tsx': { file: 'assets/start-s1.js', isDynamicEntry: true, imports: ['_core-c1.js', '_react-x1.js'] },
  '_react-x1.js': { file: 'assets/react-x1.js' },
  'src/client/app/FormPageRoute.tsx': { file: 'assets/FormPageRoute-f1.js', isDynamicEntry: true, imports: ['_core-c1.js', '_react-x1.js', '_rjsf-r1.js'] },
  '_rjsf-r1.js': { file: 'assets/rjsf-r1.js' },
  'src/client/features/accounts/LoginPage.tsx': { file: 'assets/LoginPage-l1.js', isDynamicEntry: true, imports: ['_core-c1.js'] },
};

let clientDir: string;
let server: TestServer;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-static-'));
  mkdirSync(join(clientDir, 'assets'));
  mkdirSync(join(clientDir, '.vite'));
  writeFileSync(join(clientDir, 'index.html'), html);
  writeFileSync(join(clientDir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  for (const name of ['index-e1.js', 'core-c1.js', 'FormPageRoute-f1.js', 'rjsf-r1.js', 'LoginPage-l1.js']) {
    const path = join(clientDir, 'assets', name);
    writeFileSync(path, script);
    writeFileSync(`${path}.br`, brotliCompressSync(script));
    writeFileSync(`${path}.gz`, gzipSync(script));
  }
  server = await startTestServer({ listen: false, env: { CLIENT_DIR: clientDir } });
});

afterAll(async () => {
  await server?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const asset = (acceptEncoding?: string) => server.app.inject({
  method: 'GET', url: '/assets/core-c1.js', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
});

describe('static files', () => {
  it('sends the brotli copy to a browser that takes it, gzip to one that takes only gzip, the plain file otherwise', async () => {
    const brotli = await asset('gzip, deflate, br, zstd');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
    expect(brotli.rawPayload.length).toBeLessThan(script.length / 4);

    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);

    for (const response of [brotli, gzip, plain]) {
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers['content-type']).toMatch(/javascript/);
    }
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
  });

  it('keeps the build manifest to itself', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(response.statusCode).toBe(404);
    expect(response.payload).not.toContain('FormPageRoute');
  });

  it('answers 404 for a file that is not there, not the app\'s HTML (a favicon, a chunk an older page still names)', async () => {
    for (const path of ['/favicon.ico', '/robots.txt', '/assets/FormPageRoute-old1.js', '/assets/index-e1.js.map', '/about/logo.png?v=2']) {
      const response = await server.app.inject({ method: 'GET', url: path });
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type'], path).toMatch(/application\/json/);
      expect(response.payload, path).not.toContain('<html');
    }
    expect((await server.app.inject({ method: 'GET', url: '/assets/index-e1.js' })).statusCode).toBe(200);
  });
});

describe('the HTML of a page route', () => {
  const page = (url: string, cookie?: string) => server.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('preloads the chunks of a form page that the entry does not already load', async () => {
    const response = await page('/about');
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.payload).toContain('<link rel="modulepreload" crossorigin href="/assets/FormPageRoute-f1.js">');
    expect(response.payload).toContain('<link rel="modulepreload" crossorigin href="/assets/rjsf-r1.js">');
    expect(response.payload).not.toContain('href="/assets/core-c1.js"');
    expect(response.payload).not.toContain('as="fetch"');
  });

  it('names each chunk once, though the app\'s start and the page both import it', async () => {
    const response = await page('/about');
    for (const file of ['start-s1.js', 'react-x1.js', 'FormPageRoute-f1.js', 'rjsf-r1.js']) {
      expect(response.payload.split(`href="/assets/${file}"`).length - 1, file).toBe(1);
    }
  });

  it('starts a signed-in applicant\'s profile reads from the HTML, and only on form pages', async () => {
    const signedIn = await page('/education-ug', 'logged_in=1');
    for (const path of ['/api/profile', '/api/add-another', '/api/tabs']) {
      expect(signedIn.payload).toContain(`<link rel="preload" as="fetch" crossorigin href="${path}">`);
    }
    expect(signedIn.headers.vary).toMatch(/cookie/i);
    const service = await page('/about?service_token=abc', 'logged_in=1');
    expect(service.payload).not.toContain('as="fetch"');
    const login = await page('/login', 'logged_in=1');
    expect(login.payload).toContain('href="/assets/LoginPage-l1.js"');
    expect(login.payload).not.toContain('FormPageRoute');
    expect(login.payload).not.toContain('as="fetch"');
  });

  it('adds nothing to a path that is no page route, however it is written', async () => {
    for (const path of ['/no-such-page', '//[', '/about/', '/about%3Fx']) {
      const response = await page(path, 'logged_in=1');
      expect(response.statusCode, path).toBe(200);
      expect(response.payload, path).toBe(html);
    }
  });
});
