import { callEndpoint } from '../../../lib/api-client.ts';

/** The form's own entities (spec section 3 "Other entities"): add-another counts and chosen tabs. Reads are the session's (session/api). */
export const saveAddAnother = (buttonId: string, count: number) => callEndpoint('saveAddAnother', { body: { button_id: buttonId, num_components: count } });
export const saveTab = (tabId: string, tab: string) => callEndpoint('saveTab', { body: { tab_id: tabId, chosen_tab: tab } });
