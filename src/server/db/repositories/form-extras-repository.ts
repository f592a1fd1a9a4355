import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../tables.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Add-another counts and tab choices of one applicant. */
export async function addAnotherOf(db: Kysely<Database>, applicantId: string): Promise<Record<string, number>> {
  const rows = await db.selectFrom('add_another').select(['button_id', 'num_components']).where('applicant_id', '=', applicantId).execute();
  return Object.fromEntries(rows.map((row) => [row.button_id, row.num_components]));
}

/** One button's stored count (1 when none is stored: the default of spec section 3). */
export async function addAnotherCountOf(db: Db, applicantId: string, buttonId: string): Promise<number> {
  const row = await db.selectFrom('add_another').select('num_components')
    .where('applicant_id', '=', applicantId).where('button_id', '=', buttonId).executeTakeFirst();
  return row?.num_components ?? 1;
}

export async function chosenTabOf(db: Db, applicantId: string, tabId: string): Promise<string | undefined> {
  const row = await db.selectFrom('tabs').select('chosen_tab').where('applicant_id', '=', applicantId).where('tab_id', '=', tabId).executeTakeFirst();
  return row?.chosen_tab;
}

export async function saveAddAnother(db: Db, applicantId: string, buttonId: string, count: number): Promise<void> {
  await db.insertInto('add_another').values({ applicant_id: applicantId, button_id: buttonId, num_components: count })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'button_id']).doUpdateSet({ num_components: count }))
    .execute();
}

export async function tabsOf(db: Kysely<Database>, applicantId: string): Promise<Record<string, string>> {
  const rows = await db.selectFrom('tabs').select(['tab_id', 'chosen_tab']).where('applicant_id', '=', applicantId).execute();
  return Object.fromEntries(rows.map((row) => [row.tab_id, row.chosen_tab]));
}

export async function saveTab(db: Db, applicantId: string, tabId: string, chosenTab: string): Promise<void> {
  await db.insertInto('tabs').values({ applicant_id: applicantId, tab_id: tabId, chosen_tab: chosenTab })
    .onConflict((conflict) => conflict.columns(['applicant_id', 'tab_id']).doUpdateSet({ chosen_tab: chosenTab }))
    .execute();
}
