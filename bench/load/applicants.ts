import { completeApplication } from '../../support/fixtures/complete-application.ts';
import type { Exchange, HttpClient } from './http-client.ts';
import type { ServerProcess } from './server-process.ts';

export const PASSWORD = 'Maple-Harbor-2031!';

/** One simulated applicant: an account, its own session cookie and its own client address. */
export interface Applicant {
  index: number;
  email: string;
  cookie: string;
  /** sent as X-Forwarded-For (the server runs with TRUST_PROXY=1, as behind a load balancer) */
  ip: string;
  headers: Record<string, string>;
}

function addressOf(index: number): string {
  const n = index + 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function cookieHeader(setCookies: string[], jar: Map<string, string>): string {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const at = pair!.indexOf('=');
    jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
  }
  return [...jar].filter(([, value]) => value !== '').map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Sign-up, the code from the server's mail, confirmation and login: the real API, as the browser does it. */
export async function createApplicants(client: HttpClient, server: ServerProcess, count: number, tag: string, parallel = 8): Promise<Applicant[]> {
  const applicants: Applicant[] = new Array(count);
  let next = 0;
  const expect = (step: string, exchange: Exchange) => {
    if (exchange.status !== 200) throw new Error(`${step} answered ${exchange.status} ${exchange.error ?? exchange.body}`);
  };
  async function worker(): Promise<void> {
    while (next < count) {
      const index = next++;
      const email = `load${index}.${tag}@example.org`;
      const ip = addressOf(index);
      const base = { 'sec-fetch-site': 'same-origin', 'x-forwarded-for': ip };
      // one browser's cookies throughout: a confirmation from a browser that did not sign up
      // voids the password (account-service.ts), and the login would then fail
      const jar = new Map<string, string>();
      const signup = await client.request('POST', '/public/signup', base, { username: email, password: PASSWORD });
      expect('sign-up', signup);
      const fromSignup = { ...base, cookie: cookieHeader(signup.setCookies, jar) };
      // the mail goes out in the background, after the sign-up's answer: wait for it to arrive
      const code = await server.codeFor(email);
      const confirm = await client.request('POST', '/public/confirm', fromSignup, { username: email, code });
      expect('confirm', confirm);
      const login = await client.request('POST', '/public/login', { ...base, cookie: cookieHeader(confirm.setCookies, jar) }, { username: email, password: PASSWORD });
      expect('login', login);
      const cookie = cookieHeader(login.setCookies, jar);
      if (!cookie.includes('session=')) throw new Error(`login set no session cookie: ${login.setCookies.join(' | ')}`);
      applicants[index] = { index, email, cookie, ip, headers: { ...base, cookie } };
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker));
  return applicants;
}

const FIRST = ['Ada', 'Grace', 'Katherine', 'Dorothy', 'Mary', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Radia', 'Margaret'];
const LAST = ['Lovelace', 'Hopper', 'Johnson', 'Vaughan', 'Jackson', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Perlman', 'Hamilton'];
const STREETS = ['Main Street', 'Oak Avenue', 'Maple Drive', 'Lincoln Road', 'Elm Court', 'Washington Boulevard'];
const CITIES = ['Springfield', 'Peoria', 'Rockford', 'Naperville', 'Champaign', 'Evanston'];
const CLASSES = ['English 12', 'AP Biology', 'Calculus BC', 'US History', 'Spanish IV', 'Physics', 'Chemistry', 'Statistics'];

/**
 * Answers as the form saves them: real keys of a complete application (it passes every
 * page, so submit succeeds), the free-text ones varied on every save so that a lost or
 * stale write shows in the final comparison.
 */
export class AnswerMaker {
  private readonly complete = completeApplication();
  readonly keys = Object.keys(this.complete);
  private counter = 0;

  constructor(private readonly schoolNames: string[]) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(Math.random() * list.length)]!;
  }

  value(key: string): string | boolean {
    const n = ++this.counter;
    switch (key) {
      case 'first_name': case 'parent_first_name': return this.pick(FIRST);
      case 'last_name': case 'parent_last_name': return this.pick(LAST);
      case 'address_line_1': return `${(n % 9000) + 1} ${this.pick(STREETS)}`;
      case 'city': return this.pick(CITIES);
      case 'phone_home': return `212555${String(n % 10_000).padStart(4, '0')}`;
      case 'hs_name': return this.schoolNames.length ? this.pick(this.schoolNames).slice(0, 100) : 'Central High School';
      case 'hs_class_name': return `${this.pick(CLASSES)} (${(n % 90) + 10})`;
      case 'hs_gpa': return (2.5 + Math.random() * 1.5).toFixed(2);
      default: return this.complete[key]!;
    }
  }

  /** `count` keys from `cursor` on (wrapping), as a person fills the pages in order and then revises. */
  save(cursor: number, count: number): Record<string, string | boolean> {
    const body: Record<string, string | boolean> = {};
    for (let offset = 0; offset < count; offset++) {
      const key = this.keys[(cursor + offset) % this.keys.length]!;
      body[key] = this.value(key);
    }
    return body;
  }
}

type Value = string | boolean;

interface KeyState {
  /** the last acknowledged save's value and number */
  acked?: Sent;
  /** values sent after the last acknowledged save (no answer yet, or none ever) */
  after: Sent[];
  /** saves before the last acknowledged one that never got a 200 (timed out, refused, failed) */
  unanswered: Sent[];
}

interface Sent {
  value: Value;
  seq: number;
  phase: string;
}

export type SaveToken = { email: string; seq: number; phase: string; body: Record<string, Value> };

/**
 * Every save sent and every save acknowledged (200), per applicant and key. A person's saves
 * go one at a time (the browser's save queue), so after the run each key must hold the value
 * of its last acknowledged save, or of a later save that got no answer (it may or may not
 * have been written). One more outcome is told apart: an earlier save that timed out on the
 * client but was still executed by the server after the later one had been acknowledged.
 */
export class AckLog {
  private readonly keys = new Map<string, Map<string, KeyState>>();
  private seq = 0;
  /** the benchmark's phase, kept with each save to tell where a late write came from */
  phase = '';
  acknowledgedSaves = 0;
  acknowledgedSubmits = new Set<string>();

  private state(email: string, key: string): KeyState {
    let applicant = this.keys.get(email);
    if (!applicant) this.keys.set(email, (applicant = new Map()));
    let state = applicant.get(key);
    if (!state) applicant.set(key, (state = { after: [], unanswered: [] }));
    return state;
  }

  sent(email: string, body: Record<string, Value>): SaveToken {
    const token = { email, seq: ++this.seq, phase: this.phase, body };
    for (const [key, value] of Object.entries(body)) this.state(email, key).after.push({ value, seq: token.seq, phase: token.phase });
    return token;
  }

  acknowledged(token: SaveToken): void {
    this.acknowledgedSaves++;
    for (const [key, value] of Object.entries(token.body)) {
      const state = this.state(token.email, key);
      for (const earlier of state.after) if (earlier.seq < token.seq) state.unanswered.push(earlier);
      state.after = state.after.filter((later) => later.seq > token.seq);
      state.acked = { value, seq: token.seq, phase: token.phase };
    }
  }

  /** Compares with the answers table. */
  verify(stored: Map<string, Map<string, unknown>>): { checked: number; lost: string[]; overwrittenLate: string[] } {
    const lost: string[] = [];
    const overwrittenLate: string[] = [];
    let checked = 0;
    for (const [email, keys] of this.keys) {
      for (const [key, state] of keys) {
        if (!state.acked) continue;
        checked++;
        const actual = stored.get(email)?.get(key);
        if (actual === state.acked.value || state.after.some((later) => later.value === actual)) continue;
        const line = `${email} ${key}: acknowledged ${JSON.stringify(state.acked.value)} (${state.acked.phase}), stored ${JSON.stringify(actual)}`;
        const late = state.unanswered.find((earlier) => earlier.value === actual);
        if (late) overwrittenLate.push(`${line}, sent earlier (${late.phase}) without an answer`);
        else lost.push(line);
      }
    }
    return { checked, lost, overwrittenLate };
  }
}
