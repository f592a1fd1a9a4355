import type { ColumnType, Generated } from 'kysely';

/** The database as Kysely sees it. Columns mirror src/server/db/migrations. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ApplicantsTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  confirmed_at: Timestamp | null;
  last_page: string | null;
  /** set by submit in the transaction that records it (web_status_entries keeps the history) */
  submitted_at: Timestamp | null;
  /** the language of the applicant's e-mails and PDF copy ('en', 'es'); see shared/i18n/languages.ts */
  language: Generated<string>;
  /** the applicant stopped reminder e-mails (an unsubscribe link, or the account menu); null: they get them */
  reminders_off_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** when the last required item of the application file arrived (schemas/file-items.json); set once */
  file_complete_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export interface AccountCodesTable {
  applicant_id: string;
  purpose: 'confirm' | 'reset';
  secret_hash: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface SignupBrowsersTable {
  applicant_id: string;
  proof_hash: string;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id_hash: string;
  applicant_id: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface LoginsTable {
  id: Generated<string>;
  applicant_id: string;
  login_at: CreatedAt;
}

export interface WebStatusEntriesTable {
  applicant_id: string;
  web_status: 'started' | 'validating' | 'submitted';
  created_at: CreatedAt;
}

export interface AnswersTable {
  applicant_id: string;
  key: string;
  /** jsonb: a string or a boolean; null for an answer cleared (kept for its clock) */
  value: string | boolean | null;
  schema_version: number;
  /** bigint: the client clock (ms) of the change that wrote it; 0 for the server's own writes */
  changed_at: ColumnType<string, number | undefined, number>;
  /** the page (one id per open page) whose save wrote it; null for the server's own writes */
  writer: ColumnType<string | null, string | null | undefined, string | null>;
  /** the stored change (`changed_at`) that page had seen of this key when it wrote; null: not said */
  based_on: ColumnType<string | null, number | null | undefined, number | null>;
  updated_at: Timestamp;
}

export interface AddAnotherTable {
  applicant_id: string;
  button_id: string;
  num_components: number;
}

export interface TabsTable {
  applicant_id: string;
  tab_id: string;
  chosen_tab: string;
}

export interface OutboxTable {
  id: Generated<string>;
  recipient: string;
  subject: string;
  body: string;
  /** jsonb: headers beyond To and Subject (a reminder's List-Unsubscribe); null for none */
  headers: ColumnType<Record<string, string> | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

/** An e-mail as a job: its id is the ticket the applicant's screen asks about. */
export interface MailsTable {
  id: Generated<string>;
  /** null: a stand-in that sends nothing (an answer about a missing account looks the same) */
  recipient: string | null;
  /** cleared once the mail is handed over or given up */
  subject: string | null;
  body: string | null;
  /** the name it is sent under, in the mail's language; null: MAIL_FROM's own */
  sender_name: string | null;
  /** what to do once sent, e.g. start a code's window: { name, args } */
  after_sent: unknown;
  status: 'queued' | 'sent' | 'failed';
  attempts: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Timestamp | null;
}

export interface WebhookEventsTable {
  id: string;
  type: string;
  applicant_id: string | null;
  /** the exact body signed and sent, every time */
  body: string;
  /** "<type>:<applicant>" for an event that goes once per applicant (unique); null for one of many */
  once_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  event_id: string;
  attempted_at: CreatedAt;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: Timestamp;
  hits: number;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

export interface LookupsTable {
  category: 'hs_ceeb' | 'college_ceeb' | 'address';
  /** the CEEB code, or the ZIP of an address */
  id: string;
  name: string;
  address_line_1: string | null;
  city: string;
  state: string;
  zip: string;
  /** ISO 3166-1 alpha-3 */
  country: string;
  search_text: string;
  /** tsvector, written as its text form */
  search_vector: string;
}

export interface ValidationSnapshotsTable {
  applicant_id: string;
  errors: unknown;
  updated_at: Timestamp;
}

export interface PrefillTokensTable {
  token_hash: string;
  answers: unknown;
  expires_at: Timestamp;
  /** set once an account used it; the sweep removes it */
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export type ConversionStatus = 'UNPROCESSED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface DocumentsTable {
  applicant_id: string;
  answer_key: string;
  file_key: string;
  file_name: string;
  file_size: number;
  status: ConversionStatus;
  message: string | null;
  pdf_key: string | null;
  updated_at: Timestamp;
}

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  lane: string;
  payload: unknown;
  status: 'queued' | 'running' | 'done' | 'failed';
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** "<kind>:<slot>" for a scheduled job: the unique index lets one server queue it */
  singleton_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** whose work it is (an applicant's inbox, "mailbox:<inbox>"; before, an applicant's id): owners are served in turn */
  owner: ColumnType<string | null, string | null | undefined, string | null>;
  /** the client network it came from ("network:<network>"): networks are served in turn too */
  network: ColumnType<string | null, string | null | undefined, string | null>;
  /** at most one job of this key is queued or running (a question's document) */
  slot_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** bumped when a newer payload replaces this one's (see insertJob) */
  revision: Generated<number>;
}

export interface JobOwnersTable {
  owner: string;
  /** when a job of this owner (or network) last started, pushed later by a job that cost more: the least recently served goes next */
  last_turn: Timestamp | null;
}

export interface ApplicationPdfsTable {
  applicant_id: string;
  fingerprint: string;
  status: ConversionStatus;
  pdf_key: string | null;
  message: string | null;
  updated_at: Timestamp;
}

/** A presigned POST handed out and not yet registered (the sweep removes what is left after it expires). */
export interface UploadSlotsTable {
  key: string;
  applicant_id: string;
  answer_key: string;
  reserved_bytes: number;
  stored_bytes: number | null;
  expires_at: Timestamp;
  /** registered or refused: the upload moved on (or was removed); a later POST is not its file */
  spent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
}

/** A staff link to the read-only view of one applicant (npm run service-link). */
export interface ServiceLinksTable {
  id: Generated<string>;
  applicant_id: string;
  made_by: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

/** A deadline reminder, once per applicant, rule and deadline (src/server/reminders/). */
export interface RemindersTable {
  id: Generated<string>;
  applicant_id: string;
  rule_id: string;
  deadline_id: string;
  /** queued: selected, its job waits; sending: an attempt began; skipped: not sent (reason says why) */
  status: ColumnType<'queued' | 'sending' | 'sent' | 'skipped' | 'failed', 'queued' | undefined, 'sending' | 'sent' | 'skipped' | 'failed'>;
  reason: string | null;
  /** the time it was selected for (the reminder clock: the dry run's --at, or now) */
  due_at: Timestamp;
  /** the server's time when it was selected: due_at plus the time since is the reminder clock's now */
  queued_at: CreatedAt;
  attempts: Generated<number>;
  sent_at: Timestamp | null;
  /** its unsubscribe link was used (a link is spent once the applicant turns reminders back on) */
  unsubscribed_at: Timestamp | null;
}

/** When an applicant first reached each page of the form. */
export interface PagesReachedTable {
  applicant_id: string;
  page: string;
  reached_at: CreatedAt;
}

/** An item of an applicant's application file that is not missing (schemas/file-items.json). */
export interface FileItemsTable {
  applicant_id: string;
  item_id: string;
  state: 'requested' | 'received' | 'waived';
  changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** who changed it: "applicant", "counselor", "office:<key name>", "command:<user>" */
  changed_by: string;
  note: string | null;
  /** the documents row (answer_key) of the file that came with it, if any */
  document_key: string | null;
}

/** A counselor asked by an applicant for an item; the link's token names this row. */
export interface CounselorRequestsTable {
  id: Generated<string>;
  applicant_id: string;
  item_id: string;
  email: string;
  language: Generated<string>;
  created_at: CreatedAt;
  expires_at: Timestamp;
  withdrawn_at: Timestamp | null;
  withdrawn_by: string | null;
  used_at: Timestamp | null;
}

/** The office integration's credential (npm run office-key); only its hash is kept. */
export interface OfficeKeysTable {
  id: Generated<string>;
  name: string;
  key_hash: string;
  made_by: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

export interface Database {
  applicants: ApplicantsTable;
  account_codes: AccountCodesTable;
  signup_browsers: SignupBrowsersTable;
  sessions: SessionsTable;
  logins: LoginsTable;
  web_status_entries: WebStatusEntriesTable;
  answers: AnswersTable;
  add_another: AddAnotherTable;
  tabs: TabsTable;
  outbox: OutboxTable;
  mails: MailsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  rate_limits: RateLimitsTable;
  app_secrets: AppSecretsTable;
  validation_snapshots: ValidationSnapshotsTable;
  prefill_tokens: PrefillTokensTable;
  documents: DocumentsTable;
  jobs: JobsTable;
  job_owners: JobOwnersTable;
  application_pdfs: ApplicationPdfsTable;
  upload_slots: UploadSlotsTable;
  service_links: ServiceLinksTable;
  lookups: LookupsTable;
  reminders: RemindersTable;
  pages_reached: PagesReachedTable;
  file_items: FileItemsTable;
  counselor_requests: CounselorRequestsTable;
  office_keys: OfficeKeysTable;
}
