import type { Kysely, Selectable } from 'kysely';
import type { ApplicationPdfsTable, Database } from '../tables.ts';

export type ApplicationPdfRow = Pick<Selectable<ApplicationPdfsTable>, 'fingerprint' | 'status' | 'pdf_key' | 'message'>;

export function findApplicationPdf(db: Kysely<Database>, applicantId: string): Promise<ApplicationPdfRow | undefined> {
  return db.selectFrom('application_pdfs').select(['fingerprint', 'status', 'pdf_key', 'message']).where('applicant_id', '=', applicantId).executeTakeFirst();
}

/** A new fingerprint (changed answers) starts a new PDF; returns false when one for it already exists. */
export async function startApplicationPdf(db: Kysely<Database>, applicantId: string, fingerprint: string): Promise<boolean> {
  const row = await db.insertInto('application_pdfs')
    .values({ applicant_id: applicantId, fingerprint, status: 'UNPROCESSED', pdf_key: null, message: null, updated_at: new Date() })
    .onConflict((conflict) => conflict.column('applicant_id').doUpdateSet({ fingerprint, status: 'UNPROCESSED', pdf_key: null, message: null, updated_at: new Date() })
      .where('application_pdfs.fingerprint', '<>', fingerprint))
    .returning('fingerprint').executeTakeFirst();
  return row !== undefined;
}

export async function setApplicationPdf(db: Kysely<Database>, applicantId: string, fingerprint: string, change: Partial<Omit<ApplicationPdfRow, 'fingerprint'>>): Promise<boolean> {
  const result = await db.updateTable('application_pdfs').set({ ...change, updated_at: new Date() })
    .where('applicant_id', '=', applicantId).where('fingerprint', '=', fingerprint).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The PDF each of these applicants' copies points at now (applicants without one are left out). */
export async function currentPdfKeys(db: Kysely<Database>, applicantIds: string[]): Promise<Map<string, string>> {
  if (!applicantIds.length) return new Map();
  const rows = await db.selectFrom('application_pdfs').select(['applicant_id', 'pdf_key'])
    .where('applicant_id', 'in', applicantIds).where('pdf_key', 'is not', null).execute();
  return new Map(rows.map((row) => [row.applicant_id, row.pdf_key!]));
}
