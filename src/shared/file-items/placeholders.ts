/**
 * The placeholders the application fills in each text of schemas/file-items.json: a text
 * may name only these (the schema check refuses others, which would reach an applicant or
 * a counselor as a bare "{name}"). A text not listed here is filled with none.
 */
export const TEXT_PLACEHOLDERS: Readonly<Record<string, readonly string[]>> = {
  intro: ['days'],
  complete: ['date'],
  changed_on: ['state', 'date'],
  request_sent: ['email', 'date'],
  request_expired: ['email', 'date'],
  counselor_title: ['applicant'],
  counselor_intro: ['applicant', 'item', 'partner'],
  counselor_received: ['item', 'applicant'],
  complete_subject: ['short_name', 'partner'],
  complete_text: ['name', 'partner', 'short_name', 'date', 'login_url', 'help_email'],
  announce_change: ['item', 'state'],
  uploading: ['file'],
  converting: ['file'],
  upload_failed: ['message'],
};

/** The placeholders of the mail to a counselor (an item's `counselor_request`, subject and text). */
export const COUNSELOR_REQUEST_PLACEHOLDERS: readonly string[] = ['applicant', 'school', 'item', 'link', 'expires', 'partner', 'office', 'help_email'];
