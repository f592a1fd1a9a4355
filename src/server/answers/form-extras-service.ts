import type { SaveAddAnotherBody, SaveTabBody } from '../../shared/generated/api-types.ts';
import type { Kysely } from 'kysely';
import apiMessages from '../../../schemas/text/api-messages.json';
import { form } from '../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../shared/text/fill-template.ts';
import { addAnotherOf, saveAddAnother, saveTab, tabsOf } from '../db/repositories/form-extras-repository.ts';
import type { Database } from '../db/tables.ts';
import { HttpError } from '../lib/http-error.ts';
import { unlessSubmitted } from './lifecycle-service.ts';

const repeaters = new Map(form.pageOrder.flatMap((id) => form.pages[id].repeaters).map((repeater) => [repeater.button_id, repeater.max]));
const tabGroups = new Map(form.pageOrder.flatMap((id) => form.pages[id].tabs).map((group) => [group.tab_id, group.tabs.map((tab) => tab.id)]));

/** Add-another counts and tab choices (spec section 7): checked against the form model, locked after submission like answers. */
export function createFormExtrasService(db: Kysely<Database>) {
  return {
    addAnother: (applicantId: string) => addAnotherOf(db, applicantId),
    tabs: (applicantId: string) => tabsOf(db, applicantId),

    async saveAddAnother(applicantId: string, body: SaveAddAnotherBody): Promise<{ button_id: string; num_components: number }> {
      const { button_id: buttonId, num_components: count } = body;
      const max = repeaters.get(buttonId);
      if (max === undefined) {
        throw new HttpError(400, fillTemplate(apiMessages.unknown_button, { id: buttonId }), { code: 'UNKNOWN_BUTTON' });
      }
      if (count < 1 || count > max) {
        throw new HttpError(400, fillTemplate(apiMessages.bad_count, { id: buttonId, max }), { code: 'BAD_COUNT' });
      }
      await unlessSubmitted(db, applicantId, (tx) => saveAddAnother(tx, applicantId, buttonId, count));
      return { button_id: buttonId, num_components: count };
    },

    async saveTab(applicantId: string, body: SaveTabBody): Promise<{ tab_id: string; chosen_tab: string }> {
      const { tab_id: tabId, chosen_tab: chosen } = body;
      if (!tabGroups.get(tabId)?.includes(chosen)) {
        throw new HttpError(400, fillTemplate(apiMessages.unknown_tab, { id: tabId, tab: chosen }), { code: 'UNKNOWN_TAB' });
      }
      await unlessSubmitted(db, applicantId, (tx) => saveTab(tx, applicantId, tabId, chosen));
      return { tab_id: tabId, chosen_tab: chosen };
    },
  };
}

export type FormExtrasService = ReturnType<typeof createFormExtrasService>;
