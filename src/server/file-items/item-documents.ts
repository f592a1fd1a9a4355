/**
 * Who may send an application file item's document, and when: the applicant an item they
 * provide (test scores), after submission; the counselor the item their link names; the office
 * any item. The file itself goes through the documents' own pipeline (document-service.ts
 * `item`): the same presigned POST, sniffing, untrusted-file worker, converters, quota and
 * fair turns; once it converts, the item is received from whoever sent it (conversion-job.ts).
 * A form's documents are locked at submission; an item's are not.
 */
import type { RegisterDocumentBody } from '../../shared/generated/api-types.ts';
import apiMessages from '../../../schemas/text/api-messages.json';
import { itemRule, type ItemProvider } from '../../shared/file-items/checklist.ts';
import { markCounselorRequestUsed } from '../db/repositories/counselor-request-repository.ts';
import { fileHolder } from '../db/repositories/file-item-repository.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables.ts';
import type { DocumentService, DocumentStatus } from '../documents/document-service.ts';
import { HttpError } from '../lib/http-error.ts';
import type { CounselorLink, CounselorRequests } from './counselor-requests.ts';
import type { FileItems } from './file-item-service.ts';

export function createItemDocuments(deps: { db: Kysely<Database>; documents: DocumentService; fileItems: FileItems; counselorRequests: CounselorRequests }) {
  const { db, documents, fileItems, counselorRequests } = deps;

  /** The item, if `party` provides it; the applicant's file submitted; the item still open (`closed`: states that end it). */
  async function open(applicantId: string, itemId: string, party: ItemProvider, closed: readonly string[]): Promise<void> {
    if (!itemRule(itemId)?.provided_by.includes(party)) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
    const view = await fileItems.view(applicantId);
    if (!view.submitted) throw new HttpError(409, apiMessages.file_not_submitted, { code: 'NOT_SUBMITTED' });
    const state = view.items.find((item) => item.id === itemId)?.state;
    if (state && closed.includes(state)) throw new HttpError(409, apiMessages.file_item_closed, { code: 'ITEM_CLOSED' });
  }

  /** The office names an applicant by id: one that is not there is 404, as in the office's other calls. */
  async function applicantThere(applicantId: string): Promise<void> {
    if (!(await fileHolder(db, applicantId))) throw new HttpError(404, apiMessages.applicant_unknown, { code: 'NOT_FOUND' });
  }

  // the applicant may send a better copy of what they sent; the counselor's link ends with what it was for
  const APPLICANT_CLOSED = ['waived'];
  const COUNSELOR_CLOSED = ['received', 'waived'];

  return {
    applicant: {
      async presign(applicantId: string, itemId: string) {
        await open(applicantId, itemId, 'applicant', APPLICANT_CLOSED);
        return documents.item.presign(applicantId, itemId);
      },
      async register(applicantId: string, itemId: string, body: RegisterDocumentBody, share: { email: string; network: string }) {
        await open(applicantId, itemId, 'applicant', APPLICANT_CLOSED);
        return documents.item.register(applicantId, itemId, body, share, 'applicant');
      },
      async status(applicantId: string, itemId: string) {
        if (!itemRule(itemId)?.provided_by.includes('applicant')) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
        return documents.item.status(applicantId, itemId);
      },
    },

    counselor: {
      /** What the counselor's page shows: the applicant's name, the item, where the upload stands. */
      async view(link: CounselorLink): Promise<{ applicant_name: string; item: string; language: 'en' | 'es'; status: DocumentStatus; message?: string }> {
        const [name, upload, file] = await Promise.all([
          counselorRequests.applicantName(link.applicantId), documents.item.status(link.applicantId, link.itemId), fileItems.view(link.applicantId),
        ]);
        const state = file.items.find((item) => item.id === link.itemId)?.state;
        // received by post, or no longer needed: nothing is left to send
        const status = upload.status === 'NOT_ANSWERED' && (state === 'received' || state === 'waived') ? 'COMPLETED' : upload.status;
        return { applicant_name: name, item: link.itemId, language: link.language, status, ...(upload.message && status === upload.status ? { message: upload.message } : {}) };
      },
      async presign(link: CounselorLink) {
        await open(link.applicantId, link.itemId, 'counselor', COUNSELOR_CLOSED);
        return documents.item.presign(link.applicantId, link.itemId);
      },
      async register(link: CounselorLink, body: RegisterDocumentBody, network: string) {
        await open(link.applicantId, link.itemId, 'counselor', COUNSELOR_CLOSED);
        const result = await documents.item.register(link.applicantId, link.itemId, body, { email: link.email, network }, 'counselor');
        await markCounselorRequestUsed(db, link.id);
        return result;
      },
      status: (link: CounselorLink) => documents.item.status(link.applicantId, link.itemId),
    },

    /**
     * A document the office received by post, for the office's endpoint (access 'office-key'):
     * `by` is "office:<key name>"; any item, whatever its state.
     */
    office: {
      async presign(applicantId: string, itemId: string) {
        await applicantThere(applicantId);
        await open(applicantId, itemId, 'office', []);
        return documents.item.presign(applicantId, itemId);
      },
      async register(applicantId: string, itemId: string, body: RegisterDocumentBody, by: string) {
        await applicantThere(applicantId);
        await open(applicantId, itemId, 'office', []);
        return documents.item.register(applicantId, itemId, body, undefined, by);
      },
      async status(applicantId: string, itemId: string) {
        await applicantThere(applicantId);
        if (!itemRule(itemId)) throw new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });
        return documents.item.status(applicantId, itemId);
      },
    },
  };
}

export type ItemDocuments = ReturnType<typeof createItemDocuments>;
