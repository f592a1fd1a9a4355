import http from 'node:http';

/** One HTTP exchange's outcome: status 0 means no answer (refused, reset, timed out). */
export interface Exchange {
  status: number;
  body: string;
  setCookies: string[];
  headers: http.IncomingHttpHeaders;
  ms: number;
  error?: string;
}

/**
 * A small keep-alive HTTP client (node:http, far lighter than fetch) for the simulated
 * applicants. One agent for all of them, like a load balancer's pool of connections.
 */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, private readonly timeoutMs = 10_000) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 2048 });
  }

  request(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Exchange> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    return new Promise((resolve) => {
      const request = http.request({
        host: this.base.hostname, port: this.base.port, method, path, agent: this.agent,
        headers: {
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          setCookies: response.headers['set-cookie'] ?? [],
          headers: response.headers,
          ms: performance.now() - started,
        }));
        response.on('error', (error) => resolve({ status: 0, body: '', setCookies: [], headers: {}, ms: performance.now() - started, error: error.message }));
      });
      request.setTimeout(this.timeoutMs, () => request.destroy(new Error(`timed out after ${this.timeoutMs} ms`)));
      request.on('error', (error) => resolve({ status: 0, body: '', setCookies: [], headers: {}, ms: performance.now() - started, error: error.message }));
      request.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
