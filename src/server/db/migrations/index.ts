import type { Migration } from 'kysely';
import * as accounts from './0001-accounts.ts';
import * as answersAndExtras from './0002-answers-and-extras.ts';
import * as lookups from './0003-lookups.ts';
import * as lifecycle from './0004-lifecycle.ts';
import * as documents from './0005-documents-and-jobs.ts';
import * as limits from './0006-limits-and-sweeping.ts';
import * as orderedAnswers from './0007-ordered-answers.ts';
import * as staffLinksAndExport from './0008-staff-links-and-export.ts';
import * as mailAndWebhooks from './0009-mail-and-webhooks.ts';
import * as submittedAt from './0010-submitted-at.ts';
import * as fairConversions from './0011-fair-conversions.ts';
import * as signupBrowsers from './0012-signup-browsers.ts';
import * as spentUploadSlots from './0013-spent-upload-slots.ts';
import * as applicantLanguage from './0014-applicant-language.ts';
import * as answersSeenByWriter from './0015-answers-seen-by-writer.ts';
import * as sharedTurns from './0016-shared-turns.ts';
import * as mailSenderName from './0017-mail-sender-name.ts';
import * as remindersAndPagesReached from './0018-reminders-and-pages-reached.ts';
import * as applicationFile from './0019-application-file.ts';

/** Every migration, in order. Applied at start; a new one is added at the end. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-answers-and-extras': answersAndExtras,
  '0003-lookups': lookups,
  '0004-lifecycle': lifecycle,
  '0005-documents-and-jobs': documents,
  '0006-limits-and-sweeping': limits,
  '0007-ordered-answers': orderedAnswers,
  '0008-staff-links-and-export': staffLinksAndExport,
  '0009-mail-and-webhooks': mailAndWebhooks,
  '0010-submitted-at': submittedAt,
  '0011-fair-conversions': fairConversions,
  '0012-signup-browsers': signupBrowsers,
  '0013-spent-upload-slots': spentUploadSlots,
  '0014-applicant-language': applicantLanguage,
  '0015-answers-seen-by-writer': answersSeenByWriter,
  '0016-shared-turns': sharedTurns,
  '0017-mail-sender-name': mailSenderName,
  '0018-reminders-and-pages-reached': remindersAndPagesReached,
  '0019-application-file': applicationFile,
};
