import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiSession } from '../../support/api-session.ts';
import { createConfirmedApplicant } from '../../support/seed.ts';
import { databaseTargets } from '../../support/test-databases.ts';
import { startTestServerOn, type TestServer } from '../../support/test-server.ts';

/**
 * A page acts on what it showed. A save says, per key, which stored change the page had
 * seen (`_seen`, from the profile's `answer_clock`) and which page sends it (`_writer`);
 * an add-another press or removal says the count it showed, a tab switch the tab. The
 * server refuses whatever rests on a view that is no longer true, says what is stored, and
 * writes nothing over it: a phone opened before a laptop's edits can neither lower the
 * laptop's count nor type over an answer it showed empty.
 */

interface SaveReply { saved: number; stale: Record<string, string | boolean>; stale_clock: Record<string, number> }
interface ProfileRead { answer: Record<string, string | boolean>; answer_clock: Record<string, number>; save_queue: { key: string; tag: string } }
interface ErrorReply { code: string; message: string; current?: Record<string, unknown> }

const save = (api: ApiSession, body: Record<string, unknown>) => api.put<SaveReply>('/api/answer', body);
const profile = async (api: ApiSession) => (await api.get<ProfileRead>('/api/profile')).body;
const counts = async (api: ApiSession) => (await api.get<Record<string, number>>('/api/add-another')).body;

describe.each(databaseTargets())('writes from a view that is no longer true, on $name', (target) => {
  let server: TestServer;
  let counter = 0;
  const applicant = () => createConfirmedApplicant(server.app, `views${++counter}.${target.name}@example.org`);

  beforeAll(async () => {
    server = await startTestServerOn(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a write to an answer the page showed empty while another device had saved it, and says what is stored', async () => {
    const api = await applicant();
    const phoneSaw = (await profile(api)).answer_clock;
    expect(phoneSaw.honors_2_name).toBeUndefined();
    const laptop = await save(api, { honors_2_name: 'Eagle Scout', _clock: { honors_2_name: Date.now() }, _seen: {}, _writer: 'laptop-page-1' });
    expect(laptop.body).toMatchObject({ saved: 1, stale: {} });

    // the phone's page still shows honor 2 empty; its clock is newer, and it still may not write
    const phone = await save(api, { honors_2_name: 'Debate Club', _clock: { honors_2_name: Date.now() + 5000 }, _seen: phoneSaw, _writer: 'phone-page-1' });
    expect(phone.status).toBe(200);
    expect(phone.body.saved).toBe(0);
    expect(phone.body.stale).toEqual({ honors_2_name: 'Eagle Scout' });
    const storedClock = (await profile(api)).answer_clock.honors_2_name!;
    expect(phone.body.stale_clock).toEqual({ honors_2_name: storedClock });
    expect((await profile(api)).answer.honors_2_name).toBe('Eagle Scout');

    // once the phone has shown "Eagle Scout", the applicant may knowingly type over it
    const knowingly = await save(api, { honors_2_name: 'Debate Club', _clock: { honors_2_name: storedClock + 1 }, _seen: { honors_2_name: storedClock }, _writer: 'phone-page-1' });
    expect(knowingly.body).toMatchObject({ saved: 1, stale: {} });
    expect((await profile(api)).answer.honors_2_name).toBe('Debate Club');
  });

  it("lets a page change again what it wrote itself, though its reply was lost, and takes a repeat of the same change", async () => {
    const api = await applicant();
    const writer = 'page-with-lost-replies';
    const first = Date.now();
    // the first save arrives and is written; the page never hears back, so it still counts the key as unseen
    await save(api, { first_name: 'Ad', _clock: { first_name: first }, _seen: {}, _writer: writer });
    const again = await save(api, { first_name: 'Ada', _clock: { first_name: first + 300 }, _seen: {}, _writer: writer });
    expect(again.body).toMatchObject({ saved: 1, stale: {} });
    // another page (a tab opened from the durable queue) sends the same leftover again: nothing changes
    const repeat = await save(api, { first_name: 'Ada', _clock: { first_name: first + 300 }, _seen: {}, _writer: writer });
    expect(repeat.body.stale).toEqual({});
    expect((await profile(api)).answer.first_name).toBe('Ada');
    // a different page that never saw it is refused
    const other = await save(api, { first_name: 'Eve', _clock: { first_name: first + 900 }, _seen: {}, _writer: 'another-page' });
    expect(other.body.stale).toEqual({ first_name: 'Ada' });
  });

  it('keeps the clock order alone for a client that does not say what it saw, and refuses a clearing of an answer it never saw', async () => {
    const api = await applicant();
    await save(api, { last_name: 'Lovelace', _clock: { last_name: Date.now() } });
    expect((await save(api, { last_name: 'Byron', _clock: { last_name: Date.now() + 10 } })).body.saved).toBe(1);
    const cleared = await save(api, { last_name: '', _clock: { last_name: Date.now() + 20 }, _seen: {}, _writer: 'stale-page' });
    expect(cleared.body.stale).toEqual({ last_name: 'Byron' });
    expect((await profile(api)).answer.last_name).toBe('Byron');
  });

  it('writes one of two pages racing on a key they both saw empty, and says so to the other', async () => {
    const api = await applicant();
    const at = Date.now();
    const [a, b] = await Promise.all([
      save(api, { city: 'Madison', _clock: { city: at }, _seen: {}, _writer: 'racing-page-a' }),
      save(api, { city: 'Milwaukee', _clock: { city: at + 1 }, _seen: {}, _writer: 'racing-page-b' }),
    ]);
    expect(a.body.saved + b.body.saved).toBe(1);
    const stored = (await profile(api)).answer.city;
    const loser = a.body.saved ? b.body : a.body;
    expect(loser.stale).toEqual({ city: stored });
  });

  it('refuses an add-another press from a page that showed an older count, and never lowers a count below an answered item', async () => {
    const api = await applicant();
    // the laptop adds honors 2 and 3 and names them
    expect((await api.put('/api/add-another', { button_id: 'add_honor', num_components: 2, seen_components: 1 })).status).toBe(200);
    expect((await api.put('/api/add-another', { button_id: 'add_honor', num_components: 3, seen_components: 2 })).status).toBe(200);
    const at = Date.now();
    await save(api, {
      honors_name: 'Honor Roll', honors_2_name: 'Eagle Scout', honors_3_name: 'National Merit',
      _clock: { honors_name: at, honors_2_name: at, honors_3_name: at },
    });

    // the phone, opened when there was one honor, presses "Add another"
    const phone = await api.put<ErrorReply>('/api/add-another', { button_id: 'add_honor', num_components: 2, seen_components: 1 });
    expect(phone.status).toBe(409);
    expect(phone.body.code).toBe('STALE_COUNT');
    expect(phone.body.current).toEqual({ num_components: 3 });
    expect((await counts(api)).add_honor).toBe(3);

    // a client that says nothing of what it saw still cannot hide National Merit
    const blind = await api.put<ErrorReply>('/api/add-another', { button_id: 'add_honor', num_components: 2 });
    expect(blind.status).toBe(409);
    expect(blind.body.code).toBe('INSTANCES_HOLD_ANSWERS');
    expect((await counts(api)).add_honor).toBe(3);
    expect((await profile(api)).answer.honors_3_name).toBe('National Merit');
  });

  it('removes an item on the stored answers: the ones after it move up, and a page that showed another count is refused', async () => {
    const api = await applicant();
    await api.put('/api/add-another', { button_id: 'add_honor', num_components: 3, seen_components: 1 });
    const at = Date.now();
    await save(api, {
      honors_name: 'Honor Roll', honors_2_name: 'Eagle Scout', honors_3_name: 'National Merit', honors_3_senior: true,
      _clock: { honors_name: at, honors_2_name: at, honors_3_name: at, honors_3_senior: at },
    });
    const stale = await api.post<ErrorReply>('/api/add-another/remove', { button_id: 'add_honor', instance: 2, seen_components: 2 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'STALE_COUNT', current: { num_components: 3 } });

    const removed = await api.post<{ num_components: number; answer: Record<string, unknown>; answer_clock: Record<string, number> }>(
      '/api/add-another/remove', { button_id: 'add_honor', instance: 2, seen_components: 3 },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.num_components).toBe(2);
    expect(removed.body.answer).toMatchObject({ honors_2_name: 'National Merit', honors_2_senior: true, honors_3_name: '', honors_3_senior: '' });
    const after = await profile(api);
    expect(after.answer).toMatchObject({ honors_name: 'Honor Roll', honors_2_name: 'National Merit', honors_2_senior: true });
    expect(after.answer.honors_3_name).toBeUndefined();
    expect(after.answer_clock.honors_2_name).toBe(removed.body.answer_clock.honors_2_name);
    expect((await counts(api)).add_honor).toBe(2);
    // a page that had Eagle Scout on screen as honor 2 cannot write over what moved there
    const late = await save(api, { honors_2_name: 'Eagle Scout!', _clock: { honors_2_name: Date.now() }, _seen: { honors_2_name: at }, _writer: 'page-before-removal' });
    expect(late.body.stale).toEqual({ honors_2_name: 'National Merit' });
  });

  it('refuses a tab switch from a page that showed another tab', async () => {
    const api = await applicant();
    expect((await api.put('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'transcript', seen_tab: 'classes' })).status).toBe(200);
    const phone = await api.put<ErrorReply>('/api/tabs', { tab_id: 'hs_classes_tabs', chosen_tab: 'classes', seen_tab: 'classes' });
    expect(phone.status).toBe(409);
    expect(phone.body).toMatchObject({ code: 'STALE_TAB', current: { chosen_tab: 'transcript' } });
    expect((await api.get<Record<string, string>>('/api/tabs')).body.hs_classes_tabs).toBe('transcript');
  });

  it("gives each applicant's session the same key for answers kept in the browser, and another applicant another", async () => {
    const api = await applicant();
    const first = (await profile(api)).save_queue;
    expect(first.key).toMatch(/^[\w-]{43}$/);
    expect(first.tag).toMatch(/^[\w-]{22}$/);
    expect((await profile(api)).save_queue).toEqual(first);
    const other = (await profile(await applicant())).save_queue;
    expect(other.key).not.toBe(first.key);
    expect(other.tag).not.toBe(first.tag);
  });
});
