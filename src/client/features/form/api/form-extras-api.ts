import { callEndpoint } from '../../../lib/api-client.ts';

/**
 * The form's own entities (spec section 3 "Other entities"): add-another counts and chosen
 * tabs, each change sent with what the page showed. Reads are the session's (session/api).
 */
export const saveAddAnother = (buttonId: string, count: number, seen: number) =>
  callEndpoint('saveAddAnother', { body: { button_id: buttonId, num_components: count, seen_components: seen } });
export const removeAnother = (buttonId: string, instance: number, seen: number) =>
  callEndpoint('removeAnother', { body: { button_id: buttonId, instance, seen_components: seen } });
export const saveTab = (tabId: string, tab: string, seen: string) => callEndpoint('saveTab', { body: { tab_id: tabId, chosen_tab: tab, seen_tab: seen } });
