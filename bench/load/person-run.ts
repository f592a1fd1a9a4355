import frame from '../../schemas/text/frame.json';
import type { AckLog, AnswerMaker, Applicant } from './applicants.ts';
import type { Exchange, HttpClient } from './http-client.ts';
import { CallStats } from './stats.ts';

export interface School {
  name: string;
  ceeb: string;
}

export interface PersonRunResult {
  stats: CallStats;
  seconds: number;
  submitted: number;
}

const pages = frame.steps.map((step) => step.path);
const between = (low: number, high: number) => low + Math.random() * (high - low);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * N applicants who each act like a person for `durationMs`: the page loads their profile,
 * a save goes out every 3-6 s (5-20 keys: the form saves 1.5 s after typing stops), a school
 * is searched every 10-25 s (three look-ups as the name is typed, then the chosen record),
 * the page changes every 20-30 s (last page), and at the end the application is submitted
 * (status validating, then submit). Each person does one thing at a time, as one tab's save
 * queue does, so a slow answer delays that person's next action.
 */
export async function runPersons(options: {
  client: HttpClient;
  applicants: Applicant[];
  answers: AnswerMaker;
  acks: AckLog;
  schools: School[];
  durationMs: number;
  rampMs?: number;
}): Promise<PersonRunResult> {
  const { client, applicants, answers, acks, schools, durationMs } = options;
  const rampMs = options.rampMs ?? 5000;
  const stats = new CallStats();
  let submitted = 0;
  const started = performance.now();
  const endAt = started + durationMs;

  async function call(type: string, applicant: Applicant, method: string, path: string, body?: unknown): Promise<Exchange> {
    const exchange = await client.request(method, path, applicant.headers, body);
    const ok = exchange.status >= 200 && exchange.status < 300;
    stats.record(type, exchange.ms, ok, ok ? undefined : `${exchange.status} ${exchange.error ?? exchange.body.slice(0, 200)}`);
    return exchange;
  }

  async function person(applicant: Applicant): Promise<void> {
    const start = started + between(0, rampMs);
    const submitAt = endAt - between(0, Math.min(15_000, durationMs / 4));
    await sleep(start - performance.now());
    let cursor = Math.floor(Math.random() * answers.keys.length);
    const savedKeys = new Set<string>();
    let page = 0;

    async function save(body: Record<string, string | boolean>): Promise<void> {
      const token = acks.sent(applicant.email, body);
      // as the browser's save queue sends it: each key with the time it was changed
      const clock = Date.now();
      const exchange = await call('save', applicant, 'PUT', '/api/answer', { ...body, _clock: Object.fromEntries(Object.keys(body).map((key) => [key, clock])) });
      if (exchange.status === 200) {
        acks.acknowledged(token);
        for (const key of Object.keys(body)) savedKeys.add(key);
      }
    }

    await call('profile', applicant, 'GET', '/api/profile');
    await call('status', applicant, 'POST', '/api/web-status', { web_status: 'started' });
    await call('last-page', applicant, 'PUT', '/api/last-page', { last_page: pages[0] });

    const next = { save: performance.now() + between(3000, 6000), lookup: performance.now() + between(2000, 25_000), page: performance.now() + between(20_000, 30_000) };
    for (;;) {
      const [action, plannedAt] = Object.entries(next).sort((a, b) => a[1] - b[1])[0]! as [keyof typeof next, number];
      if (plannedAt >= submitAt) break;
      await sleep(plannedAt - performance.now());
      if (action === 'save') {
        const count = 5 + Math.floor(Math.random() * 16);
        await save(answers.save(cursor, count));
        cursor += count;
        next.save = plannedAt + between(3000, 6000);
      } else if (action === 'lookup') {
        const school = schools[Math.floor(Math.random() * schools.length)]!;
        const typed = school.name.toLowerCase();
        let at = plannedAt;
        for (const length of [3, 7, 12]) {
          await sleep(at - performance.now());
          await call('lookup text', applicant, 'GET', `/lookup/find?text=${encodeURIComponent(typed.slice(0, length))}&category=hs_ceeb`);
          at += between(250, 600); // the combobox waits 200 ms after the last keystroke
        }
        await sleep(at - performance.now());
        await call('lookup id', applicant, 'GET', `/lookup/find?id=${school.ceeb}&category=hs_ceeb`);
        next.lookup = plannedAt + between(10_000, 25_000);
      } else {
        page = (page + 1) % pages.length;
        await call('last-page', applicant, 'PUT', '/api/last-page', { last_page: pages[page] });
        if (Math.random() < 0.3) await call('profile', applicant, 'GET', '/api/profile'); // a reload now and then
        next.page = plannedAt + between(20_000, 30_000);
      }
    }

    // the end: anything never saved, then Submit (validating) and the server's submit
    await sleep(submitAt - performance.now());
    const missing = answers.keys.filter((key) => !savedKeys.has(key));
    for (let from = 0; from < missing.length; from += 20) {
      const body = Object.fromEntries(missing.slice(from, from + 20).map((key) => [key, answers.value(key)]));
      await save(body);
    }
    await call('status', applicant, 'POST', '/api/web-status', { web_status: 'validating' });
    const submit = await call('submit', applicant, 'POST', '/api/submit', {});
    if (submit.status === 200) {
      submitted++;
      acks.acknowledgedSubmits.add(applicant.email);
    }
  }

  await Promise.all(applicants.map(person));
  const seconds = (performance.now() - started) / 1000;
  return { stats, seconds, submitted };
}
