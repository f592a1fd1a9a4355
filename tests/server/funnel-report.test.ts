/**
 * The funnel report's figures against a database whose answer is known
 * (tests/fixtures/funnel-applicants.ts), from the command as the office runs it (beside the
 * running server: through its admin channel on the embedded database), as JSON and HTML.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import reportText from '../../schemas/text/funnel-report.json';
import { form } from '../../src/shared/form/form-model-data.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';
import { HOSTILE, seedKnownFunnel } from '../fixtures/funnel-applicants.ts';
import { builtCommand } from '../helpers/built-server.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
// a month on: everyone who has not submitted has been idle for the report's 7 days
const AT = new Date(Date.now() + 30 * 86_400_000).toISOString();

describe.each(databaseTargets())('the funnel report on $name', (target) => {
  let server: TestServer;
  const out = mkdtempSync(join(tmpdir(), 'funnel-'));
  const report = async (...args: string[]) => (await promisify(execFile)(process.execPath, builtCommand('report-funnel', '--at', AT, ...args), {
    cwd: ROOT, env: { ...process.env, DATABASE_URL: server.config.databaseUrl ?? '', DATA_DIR: server.config.dataDir, LOG_LEVEL: 'warn' },
  })).stdout;

  beforeAll(async () => {
    server = await startTestServerOn(target);
    await seedKnownFunnel(server);
    // one of the two who submitted has every required item in: their file is complete
    const done = await server.app.db.selectFrom('applicants').select('id').where('email', '=', 'done@example.org').executeTakeFirstOrThrow();
    expect((await server.app.fileItems.mark(done.id, 'transcript', { state: 'received', by: 'office:test' })).completedAt).toBeInstanceOf(Date);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('counts each step, the questions in the way, where those who stopped stopped, and what followed the reminder', async () => {
    expect(await report('--format', 'json', '--out', join(out, 'report.json'))).toMatch(/4 started, 2 submitted, 1 with a complete file/);
    const figures = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(figures.steps.map((step: { id: string }) => step.id)).toEqual(['started', 'reached:/about', 'reached:/education-ug', 'reached:/final-steps', 'validating', 'submitted', 'file_complete']);
    expect(figures.total).toEqual({ counts: [4, 4, 3, 2, 3, 2, 1], lost: [0, 0, 1, 1, -1, 1, 1] });
    // every week from the cycle's first to this one, everyone in the week they started
    const thisWeek = figures.weeks.at(-1);
    expect(figures.weeks[0]).toMatchObject({ week: 1, starts_on: '2026-08-01' });
    expect(thisWeek.counts).toEqual([4, 4, 3, 2, 3, 2, 1]);
    expect(figures.weeks.slice(0, -1).every((week: { counts: number[] }) => week.counts.every((count) => count === 0))).toBe(true);
    // the hostile key is no question of the form: left out; the labels are the staff preview's
    expect(figures.questions).toEqual([
      { key: 'first_name', label: form.fields.first_name!.title, section: expect.any(String), page: form.pages.about.title, applicants: 2 },
      { key: 'last_name', label: form.fields.last_name!.title, section: expect.any(String), page: form.pages.about.title, applicants: 1 },
    ]);
    expect(figures.stopped).toEqual([
      { page: '/about', label: 'About You', applicants: 1 },
      { page: '/final-steps', label: 'Final Step', applicants: 1 },
    ]);
    expect(figures.reminders).toEqual([{ rule: 'week-before', deadline: 'deadline-jan', deadline_date: '2027-01-15', sent: 3, came_back: 2, submitted: 1, unsubscribed: 0 }]);
    expect(JSON.stringify(figures)).not.toContain('@example.org');
  });

  it('writes one HTML page that names nobody, escapes what applicants typed, and lists names only when asked', async () => {
    await report('--out', join(out, 'report.html'));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<table>');
    expect(html).toContain(reportText.funnel_caption);
    expect(html).not.toContain('@example.org');
    expect(html).not.toMatch(/<script|onerror=|src=x/i);
    expect(html).toMatch(/^<!doctype html>[\s\S]*<\/html>\n$/);
    expect(html).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // nothing to fetch: the SVG namespace is a name, not a request

    await report('--out', join(out, 'named.html'), '--with-names');
    const named = readFileSync(join(out, 'named.html'), 'utf8');
    expect(named).toContain('about@example.org');
    expect(named).toContain('checking@example.org');
    expect(named).not.toContain('done@example.org');
    expect(named).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(named).not.toMatch(/<script/i);
    expect(HOSTILE).toContain('<script>');
  });
});
