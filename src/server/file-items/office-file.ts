/**
 * The application file as the office reads and changes it (the office API and npm run
 * file-items): an applicant's items with who changed them and the note kept with each, and
 * the office's changes, each through the file-items service's `mark` (its events, the
 * file's completion and its mail go with it).
 */
import type { Kysely } from 'kysely';
import apiMessages from '../../../schemas/text/api-messages.json';
import { itemRule, type FileItemState } from '../../shared/file-items/checklist.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import type { OfficeApplicationFileReply as OfficeApplicationFile } from '../../shared/generated/api-types.ts';
import { fileHolder, fileHolderByEmail, fileItemsOf, type FileHolder } from '../db/repositories/file-item-repository.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import type { FileItems } from './file-item-service.ts';

/** What the office may set: `requested` is the counselor request's own. */
export type OfficeItemState = Extract<FileItemState, 'received' | 'waived' | 'missing'>;
export const OFFICE_ITEM_STATES: readonly OfficeItemState[] = ['received', 'waived', 'missing'];

const unknownApplicant = () => new HttpError(404, apiMessages.applicant_unknown, { code: 'NOT_FOUND' });
const unknownItem = () => new HttpError(404, apiMessages.file_item_unknown, { code: 'UNKNOWN_ITEM' });

export function createOfficeFile(db: Kysely<Database>, fileItems: Pick<FileItems, 'view' | 'mark'>) {
  async function fileOfHolder(holder: FileHolder): Promise<OfficeApplicationFile> {
    const [view, stored] = await Promise.all([fileItems.view(holder.id), fileItemsOf(db, holder.id)]);
    return {
      applicant_id: holder.id,
      email: holder.email,
      submitted: view.submitted,
      complete_at: view.complete_at,
      decision_due: view.decision_due,
      items: view.items.map((item) => {
        const row = stored.find((entry) => entry.item_id === item.id);
        return { id: item.id, required: item.required, state: item.state, changed_at: item.changed_at, changed_by: row?.changed_by ?? null, note: row?.note ?? null };
      }),
    };
  }

  async function holderOf(applicantId: string): Promise<FileHolder> {
    const holder = await fileHolder(db, applicantId);
    if (!holder) throw unknownApplicant();
    return holder;
  }

  return {
    async fileOf(applicantId: string): Promise<OfficeApplicationFile> {
      return fileOfHolder(await holderOf(applicantId));
    },

    async fileByEmail(email: string): Promise<OfficeApplicationFile> {
      const holder = await fileHolderByEmail(db, email);
      if (!holder) throw unknownApplicant();
      return fileOfHolder(holder);
    },

    /** `by` is who changed it: `office:<key name>` or `command:<user>`. */
    async mark(applicantId: string, itemId: string, change: { state: OfficeItemState; note?: string | null }, by: string): Promise<{ changed: boolean; file: OfficeApplicationFile }> {
      const holder = await holderOf(applicantId);
      if (!itemRule(itemId)) throw unknownItem();
      if (!OFFICE_ITEM_STATES.includes(change.state)) throw new HttpError(400, fillTemplate(apiMessages.invalid_request, { where: 'state' }), { code: 'INVALID_REQUEST' });
      const note = change.note?.trim() ? change.note.trim() : null;
      const { changed } = await fileItems.mark(holder.id, itemId, { state: change.state, by, note });
      return { changed, file: await fileOfHolder(holder) };
    },
  };
}

export type OfficeFile = ReturnType<typeof createOfficeFile>;
