import type { FastifyInstance } from 'fastify';
import apiMessages from '../../../../schemas/text/api-messages.json';
import { form } from '../../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { addAnotherOf, saveAddAnother, saveTab, tabsOf } from '../../db/repositories/form-extras-repository.ts';
import { HttpError } from '../../lib/http-error.ts';

const repeaters = new Map(form.pageOrder.flatMap((id) => form.pages[id].repeaters).map((repeater) => [repeater.button_id, repeater.max]));
const tabGroups = new Map(form.pageOrder.flatMap((id) => form.pages[id].tabs).map((group) => [group.tab_id, group.tabs.map((tab) => tab.id)]));

/** Add-another counts and tab choices (spec section 7), checked against the form model. */
export default async function formExtrasRoutes(app: FastifyInstance) {
  app.addHook('onRequest', app.requireApplicant);

  app.get('/api/add-another', (request) => addAnotherOf(app.db, request.applicant!.id));

  app.put('/api/add-another', async (request) => {
    const { button_id: buttonId, num_components: count } = (request.body ?? {}) as { button_id?: unknown; num_components?: unknown };
    const max = repeaters.get(String(buttonId));
    if (typeof buttonId !== 'string' || max === undefined) {
      throw new HttpError(400, fillTemplate(apiMessages.unknown_button, { id: String(buttonId) }), { code: 'UNKNOWN_BUTTON' });
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > max) {
      throw new HttpError(400, fillTemplate(apiMessages.bad_count, { id: buttonId, max }), { code: 'BAD_COUNT' });
    }
    await saveAddAnother(app.db, request.applicant!.id, buttonId, count);
    return { button_id: buttonId, num_components: count };
  });

  app.get('/api/tabs', (request) => tabsOf(app.db, request.applicant!.id));

  app.put('/api/tabs', async (request) => {
    const { tab_id: tabId, chosen_tab: chosen } = (request.body ?? {}) as { tab_id?: unknown; chosen_tab?: unknown };
    const tabs = tabGroups.get(String(tabId));
    if (typeof tabId !== 'string' || typeof chosen !== 'string' || !tabs?.includes(chosen)) {
      throw new HttpError(400, fillTemplate(apiMessages.unknown_tab, { id: String(tabId), tab: String(chosen) }), { code: 'UNKNOWN_TAB' });
    }
    await saveTab(app.db, request.applicant!.id, tabId, chosen);
    return { tab_id: tabId, chosen_tab: chosen };
  });
}
