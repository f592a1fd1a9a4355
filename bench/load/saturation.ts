import autocannon from 'autocannon';
import type { AckLog, AnswerMaker, Applicant, SaveToken } from './applicants.ts';
import type { HealthGaps } from './health-probe.ts';
import { percentile } from './stats.ts';

export interface SaturationResult {
  connections: number;
  seconds: number;
  saves: number;
  savesPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** GET /healthz asked every 20 ms during the run (bench-load.ts adds it) */
  health?: HealthGaps;
}

/**
 * Saves only, as fast as the server answers, with `connections` in flight (autocannon,
 * one connection per applicant, each with its own session and 5-20 keys per save). Every
 * save is recorded in the acknowledgement log like the person-like runs'.
 */
export async function saturate(options: {
  url: string;
  applicants: Applicant[];
  answers: AnswerMaker;
  acks: AckLog;
  seconds: number;
  record?: boolean;
}): Promise<SaturationResult> {
  const { url, applicants, answers, acks } = options;
  const byCookie = new Map(applicants.map((applicant) => [applicant.cookie, applicant]));
  const cursors = new Map<string, number>();
  let next = 0;
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};

  let finish: (result: autocannon.Result) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const instance = autocannon({
    url,
    connections: applicants.length,
    duration: options.seconds,
    timeout: 10,
    pipelining: 1,
    setupClient(client) {
      const applicant = applicants[next++ % applicants.length]!;
      client.setHeaders({
        'content-type': 'application/json', 'sec-fetch-site': 'same-origin',
        'x-forwarded-for': applicant.ip, cookie: applicant.cookie,
      });
    },
    requests: [{
      method: 'PUT',
      path: '/api/answer',
      setupRequest(request, context) {
        const applicant = byCookie.get(String(request.headers?.cookie ?? ''));
        const state = context as { pending?: SaveToken };
        if (!applicant) return { ...request, body: '{}' }; // built before setupClient ran; rebuilt with the cookie
        const cursor = cursors.get(applicant.email) ?? Math.floor(Math.random() * answers.keys.length);
        const count = 5 + Math.floor(Math.random() * 16);
        cursors.set(applicant.email, cursor + count);
        const body = answers.save(cursor, count);
        state.pending = acks.sent(applicant.email, body);
        const clock = Date.now(); // each key with the time it was changed, as the browser's save queue sends it
        return { ...request, body: JSON.stringify({ ...body, _clock: Object.fromEntries(Object.keys(body).map((key) => [key, clock])) }) };
      },
      onResponse(status, _body, context) {
        const { pending } = context as { pending?: SaveToken };
        if (status === 200 && pending) acks.acknowledged(pending);
      },
    }],
  }, (error, result) => (error ? fail(error) : finish(result)));
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    latencies.push(responseTime);
  });
  const result = await done;
  latencies.sort((a, b) => a - b);
  const ok = statusCodes['200'] ?? 0;
  return {
    connections: applicants.length,
    seconds: result.duration,
    saves: ok,
    savesPerSecond: ok / result.duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? NaN,
    errors: result.errors + result.non2xx,
    statusCodes,
  };
}
