import { isAbsolute } from 'node:path';
import { sql, type Kysely } from 'kysely';
import prefill from '../../../schemas/prefill.json';
import type { Config } from '../config.ts';
import type { LookupRow } from '../db/repositories/lookup-repository.ts';
import { savedAnswersAfter } from '../db/repositories/answer-repository.ts';
import { insertPrefill } from '../db/repositories/prefill-repository.ts';
import { submittedApplicantIds } from '../db/repositories/status-repository.ts';
import { findWebhookEvent, webhookAttempts } from '../db/repositories/webhook-repository.ts';
import type { Database } from '../db/tables.ts';
import { exportApplications } from '../export/export-applications.ts';
import { planReminders } from '../reminders/reminder-service.ts';
import { funnelFigures } from '../report/funnel-figures.ts';
import { stoppedApplicants } from '../db/repositories/funnel-repository.ts';
import { createFileItems } from '../file-items/file-item-service.ts';
import { createOfficeFile, OFFICE_ITEM_STATES, type OfficeItemState } from '../file-items/office-file.ts';
import { officeKeys, type OfficeKeyRow } from '../file-items/office-keys.ts';
import { HttpError } from '../lib/http-error.ts';
import { createSecretStore } from '../lib/secret-store.ts';
import { loadSecretsKey } from '../lib/secrets-key.ts';
import { randomToken, sha256 } from '../lib/secrets.ts';
import { isLookupCategory } from '../lookups/categories.ts';
import { writeLookups } from '../lookups/write-lookups.ts';
import { createStaffLinks, MAX_LINK_MINUTES } from '../service-links/staff-links.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { replayEvents } from '../webhooks/webhook-delivery.ts';

/**
 * What the office's commands read and write in the application's data, each a function of
 * the database and JSON in, JSON out. The command runs them itself when it has the
 * database to itself (PostgreSQL, or no server on DATA_DIR), or asks the running server to
 * run them on its admin channel (admin-channel.ts): the same code, the same answers.
 */
export interface DataContext {
  db: Kysely<Database>;
  /** the one running them: the server's own (PUBLIC_URL in links), or the command's */
  config: Config;
  /** where uploads are kept (local storage or S3), made on first use */
  documentStorage(): Promise<ObjectStorage>;
  /** wakes the job runner of the server running them, so what they queued starts now */
  jobsQueued?(): void;
}

/** Arguments that do not hold: the caller gets the message, nothing is done. */
export class BadArguments extends Error {}

const text = (value: unknown, name: string): string => {
  if (typeof value !== 'string') throw new BadArguments(`${name} must be text`);
  return value;
};
const optionalText = (value: unknown, name: string): string | undefined => value === undefined ? undefined : text(value, name);
const flag = (value: unknown, name: string): boolean => {
  if (typeof value !== 'boolean') throw new BadArguments(`${name} must be true or false`);
  return value;
};
const iso = (date: Date) => date.toISOString();

type Args = Record<string, unknown>;

async function staffLinks(context: DataContext) {
  const secrets = createSecretStore(context.db, await loadSecretsKey(context.config));
  return createStaffLinks(context.db, await secrets.get('service-token-key', () => randomToken()));
}

/** The application file's service as a command uses it: its events as the servers' settings say, its jobs for them. */
function officeFile(context: DataContext) {
  const fileItems = createFileItems({
    db: context.db, jobs: { poke: () => context.jobsQueued?.() }, webhooksEnabled: Boolean(context.config.webhook), publicUrl: () => context.config.publicUrl,
  });
  return createOfficeFile(context.db, fileItems);
}

const officeKeyOut = (row: OfficeKeyRow) => ({
  id: row.id, name: row.name, made_by: row.made_by, created_at: iso(row.created_at),
  last_used_at: row.last_used_at ? iso(row.last_used_at) : null, revoked_at: row.revoked_at ? iso(row.revoked_at) : null, revoked_by: row.revoked_by,
});

/** The most rows one 'file-items.mark' call takes (npm run file-items -- import sends them in slices). */
export const MAX_MARKS_PER_CALL = 200;

/** The most answers one page of 'answers.saved' carries (a reply of a few MB over the admin channel). */
export const MAX_ANSWERS_PAGE = 20_000;

const LOOKUP_TEXT_COLUMNS = ['id', 'name', 'city', 'state', 'zip', 'country', 'search_text', 'search_vector'] as const;

/** A row a command checked; checked again here for its shape, as it came over a channel. */
function lookupRow(value: unknown, category: string): LookupRow {
  const row = value as Record<string, unknown> | null;
  if (typeof row !== 'object' || row === null || row.category !== category) throw new BadArguments(`every row must be of category ${category}`);
  for (const column of LOOKUP_TEXT_COLUMNS) text(row[column], column);
  if (row.address_line_1 !== null) text(row.address_line_1, 'address_line_1');
  return Object.fromEntries(['category', 'address_line_1', ...LOOKUP_TEXT_COLUMNS].map((column) => [column, row[column]])) as unknown as LookupRow;
}

export const dataOperations = {
  async 'service-link.make'(context: DataContext, args: Args) {
    const minutes = Number(args.minutes);
    if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_LINK_MINUTES) throw new BadArguments(`minutes must be 1 to ${MAX_LINK_MINUTES}`);
    const link = await (await staffLinks(context)).make(text(args.email, 'email'), text(args.by, 'by'), minutes, context.config.publicUrl);
    return link ? { id: link.id, url: link.url, expiresAt: iso(link.expiresAt) } : null;
  },

  async 'service-link.list'(context: DataContext, args: Args) {
    const rows = await (await staffLinks(context)).list(flag(args.all, 'all'));
    return rows.map((row) => ({
      id: row.id, email: row.email, made_by: row.made_by, created_at: iso(row.created_at), expires_at: iso(row.expires_at),
      revoked_at: row.revoked_at ? iso(row.revoked_at) : null, revoked_by: row.revoked_by,
    }));
  },

  async 'service-link.revoke'(context: DataContext, args: Args): Promise<
    { status: 'not found' | 'ambiguous' } | { status: 'revoked' | 'already revoked'; link: { id: string; email: string; revoked_at: string | null; revoked_by: string | null } }
  > {
    const result = await (await staffLinks(context)).revoke(text(args.id, 'id'), text(args.by, 'by'));
    if (!('link' in result)) return { status: result.status };
    const { link } = result;
    return { status: result.status, link: { id: link.id, email: link.email, revoked_at: link.revoked_at ? iso(link.revoked_at) : null, revoked_by: link.revoked_by } };
  },

  /** Makes an office key; the key itself is in this answer only. */
  async 'office-key.make'(context: DataContext, args: Args) {
    const { row, key } = await officeKeys(context.db).make(text(args.name, 'name'), text(args.by, 'by')).catch((error: Error) => {
      throw new BadArguments(error.message);
    });
    return { key, ...officeKeyOut(row) };
  },

  async 'office-key.list'(context: DataContext, args: Args) {
    return (await officeKeys(context.db).list(flag(args.all, 'all'))).map(officeKeyOut);
  },

  async 'office-key.revoke'(context: DataContext, args: Args): Promise<
    { status: 'not found' | 'ambiguous' } | { status: 'revoked' | 'already revoked'; key: ReturnType<typeof officeKeyOut> }
  > {
    const result = await officeKeys(context.db).revoke(text(args.id, 'id'), text(args.by, 'by'));
    return 'key' in result ? { status: result.status, key: officeKeyOut(result.key) } : { status: result.status };
  },

  /** One applicant's application file, by e-mail address; null when no one has it. */
  async 'file-items.show'(context: DataContext, args: Args) {
    try {
      return await officeFile(context).fileByEmail(text(args.email, 'email'));
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  },

  /** The applicants' ids by the e-mail addresses given (compared without case); an unknown one is left out. */
  async 'file-items.applicants'(context: DataContext, args: Args) {
    if (!Array.isArray(args.emails) || args.emails.length > 100_000) throw new BadArguments('emails must be a list');
    const emails = [...new Set(args.emails.map((email) => text(email, 'emails').trim().toLowerCase()))];
    const found: Record<string, string> = {};
    for (let at = 0; at < emails.length; at += 1000) {
      const rows = await context.db.selectFrom('applicants').select(['id', sql<string>`lower(email)`.as('email')])
        .where(sql<string>`lower(email)`, 'in', emails.slice(at, at + 1000)).execute();
      for (const row of rows) found[row.email] = row.id;
    }
    return { found };
  },

  /**
   * Marks items, one row after another, each through the file-items service (its event, the
   * file's completion and mail): a row that fails is reported and the next one goes on.
   */
  async 'file-items.mark'(context: DataContext, args: Args) {
    if (!Array.isArray(args.rows) || args.rows.length > MAX_MARKS_PER_CALL) throw new BadArguments(`rows must be a list of at most ${MAX_MARKS_PER_CALL}`);
    const by = text(args.by, 'by');
    const rows = args.rows.map((value) => {
      const row = value as Record<string, unknown> | null;
      if (typeof row !== 'object' || row === null) throw new BadArguments('every row must be an object');
      const state = text(row.state, 'state');
      if (!OFFICE_ITEM_STATES.includes(state as OfficeItemState)) throw new BadArguments(`state must be ${OFFICE_ITEM_STATES.join(', ')}`);
      return { applicantId: text(row.applicantId, 'applicantId'), item: text(row.item, 'item'), state: state as OfficeItemState, note: optionalText(row.note ?? undefined, 'note') ?? null };
    });
    const service = officeFile(context);
    const results: ({ changed: boolean; complete_at: string | null } | { error: string })[] = [];
    for (const row of rows) {
      try {
        const { changed, file } = await service.mark(row.applicantId, row.item, { state: row.state, note: row.note }, by);
        results.push({ changed, complete_at: file.complete_at });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        results.push({ error: error.message });
      }
    }
    return { results };
  },

  async 'prefill.create'(context: DataContext, args: Args) {
    const answers = args.answers as Record<string, unknown> | null;
    if (typeof answers !== 'object' || answers === null || !Object.keys(answers).length
      || Object.entries(answers).some(([key, value]) => !prefill.allowed_keys.includes(key) || typeof value !== 'string')) {
      throw new BadArguments(`answers must be text answers to ${prefill.allowed_keys.join(', ')}`);
    }
    const token = randomToken();
    await insertPrefill(context.db, sha256(token), answers as Record<string, string>, new Date(Date.now() + prefill.valid_days * 86_400_000));
    return { url: `${context.config.publicUrl}/about?token=${token}` };
  },

  async 'applications.export'(context: DataContext, args: Args) {
    const outDir = text(args.outDir, 'outDir');
    // the caller's folder, resolved where it runs: a relative one would land in the server's
    if (!isAbsolute(outDir)) throw new BadArguments('outDir must be an absolute path');
    const format = text(args.format, 'format');
    if (format !== 'csv' && format !== 'jsonl') throw new BadArguments('format must be csv or jsonl');
    const since = optionalText(args.since, 'since');
    if (since !== undefined && !Number.isFinite(Date.parse(since))) throw new BadArguments('since must be a time');
    const storage = flag(args.documents, 'documents') ? await context.documentStorage() : undefined;
    const done = await exportApplications(context.db, { since, all: flag(args.all, 'all'), format, outDir, documents: storage });
    if (done.documents.applicationPdfQueued) context.jobsQueued?.();
    return done;
  },

  async 'webhooks.show'(context: DataContext, args: Args) {
    const event = await findWebhookEvent(context.db, text(args.id, 'id'));
    if (!event) return null;
    const attempts = await webhookAttempts(context.db, event.id);
    return {
      event: { id: event.id, type: event.type, body: event.body },
      attempts: attempts.map((attempt) => ({
        attempted_at: iso(attempt.attempted_at), status_code: attempt.status_code, duration_ms: attempt.duration_ms, error: attempt.error,
      })),
    };
  },

  async 'webhooks.replay'(context: DataContext, args: Args) {
    const ids = args.ids === undefined ? undefined : (Array.isArray(args.ids) ? args.ids : [null]).map((id) => text(id, 'ids'));
    const sinceText = optionalText(args.since, 'since');
    const since = sinceText === undefined ? undefined : new Date(sinceText);
    if (since && Number.isNaN(since.getTime())) throw new BadArguments('since must be a time');
    const replayed = await replayEvents(context.db, { ...(ids ? { ids } : {}), ...(since ? { since } : {}) });
    if (replayed.queued.length) context.jobsQueued?.();
    return replayed;
  },

  /** A page of the saved answers, for schema:impact: `after` is the last [applicant, key] of the page before. */
  async 'answers.saved'(context: DataContext, args: Args) {
    const limit = Number(args.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ANSWERS_PAGE) throw new BadArguments(`limit must be 1 to ${MAX_ANSWERS_PAGE}`);
    const after = args.after === null || args.after === undefined ? null
      : Array.isArray(args.after) && args.after.length === 2 ? [text(args.after[0], 'after'), text(args.after[1], 'after')] as [string, string] : null;
    if (args.after && !after) throw new BadArguments('after must be [applicant id, key]');
    return { rows: await savedAnswersAfter(context.db, after, limit) };
  },

  async 'applications.submitted'(context: DataContext) {
    return { ids: await submittedApplicantIds(context.db) };
  },

  /** Who would get which reminder at `at` (npm run reminders -- --dry-run): nothing is recorded or sent. */
  async 'reminders.plan'(context: DataContext, args: Args) {
    const at = new Date(text(args.at, 'at'));
    if (Number.isNaN(at.getTime())) throw new BadArguments('at must be a time');
    return planReminders(context.db, at);
  },

  /** The funnel report's figures at `at` (npm run report:funnel): aggregates only, nobody named. */
  async 'report.funnel'(context: DataContext, args: Args) {
    const at = new Date(text(args.at, 'at'));
    const idleDays = Number(args.idleDays);
    if (Number.isNaN(at.getTime())) throw new BadArguments('at must be a time');
    if (!Number.isInteger(idleDays) || idleDays < 1 || idleDays > 365) throw new BadArguments('idleDays must be 1 to 365');
    return funnelFigures(context.db, { at, idleDays });
  },

  /** The applicants who stopped among the next `limit` accounts after `after`, by e-mail address (--with-names). */
  async 'report.stopped'(context: DataContext, args: Args) {
    const at = new Date(text(args.at, 'at'));
    const idleDays = Number(args.idleDays);
    const limit = Number(args.limit);
    if (Number.isNaN(at.getTime()) || !Number.isInteger(idleDays) || !Number.isInteger(limit) || limit < 1 || limit > 5000) throw new BadArguments('at, idleDays and limit (1 to 5000) are needed');
    const { rows, next } = await stoppedApplicants(context.db, new Date(at.getTime() - idleDays * 86_400_000), optionalText(args.after, 'after') ?? null, limit);
    return { rows: rows.map((row) => ({ ...row, last_activity: new Date(row.last_activity).toISOString() })), next };
  },

  async 'lookups.write'(context: DataContext, args: Args) {
    const category = args.category;
    if (!isLookupCategory(category)) throw new BadArguments('category is not a look-up category');
    if (!Array.isArray(args.rows)) throw new BadArguments('rows must be a list');
    const rows = args.rows.map((row) => lookupRow(row, category));
    return writeLookups(context.db, category, rows, { replace: flag(args.replace, 'replace') });
  },
} satisfies Record<string, (context: DataContext, args: Args) => Promise<unknown>>;

export type DataOperations = typeof dataOperations;
export type DataOperationName = keyof DataOperations;
export type DataOperationResult<Name extends DataOperationName> = Awaited<ReturnType<DataOperations[Name]>>;

export function isDataOperation(name: string): name is DataOperationName {
  return Object.hasOwn(dataOperations, name);
}

/** Runs one operation; its answer as JSON carries it (what the admin channel sends back). */
export async function runDataOperation<Name extends DataOperationName>(context: DataContext, name: Name, args: Args): Promise<DataOperationResult<Name>> {
  return await dataOperations[name](context, args) as DataOperationResult<Name>;
}
