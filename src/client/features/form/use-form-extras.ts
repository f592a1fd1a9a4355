import errorsText from '../../../../schemas/text/errors.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useApplicationSession } from '../../session/session-hooks.ts';
import { saveAddAnother, saveTab } from './api/form-extras-api.ts';

/** Raises an add-another count here and on the server (on failure a toast named by the button's label, not its id); says whether it was saved. */
export function useAddAnother() {
  const toast = useToast();
  const { answers: answersStore } = useApplicationSession();
  return async (buttonId: string, count: number, label = buttonId) => {
    const previous = answersStore.getExtras().addAnother[buttonId] ?? 1;
    answersStore.setAddAnother(buttonId, count);
    try {
      await saveAddAnother(buttonId, count);
      return true;
    } catch (error) {
      answersStore.setAddAnother(buttonId, previous);
      toast({ severity: 'error', title: fillTemplate(errorsText.toast.add_another_error, { id: label }), message: messageOf(error), key: `add-${buttonId}` });
      return false;
    }
  };
}

/** Saves a tab choice (on failure a toast named by the tab's title, not its id). */
export function useChooseTab() {
  const toast = useToast();
  const { answers: answersStore } = useApplicationSession();
  return async (tabId: string, tab: string, defaultTab: string, label = defaultTab) => {
    const previous = answersStore.getExtras().tabs[tabId];
    answersStore.setTab(tabId, tab);
    try {
      await saveTab(tabId, tab);
      return true;
    } catch (error) {
      answersStore.setTab(tabId, previous ?? defaultTab);
      toast({ severity: 'error', title: fillTemplate(errorsText.toast.tabs_error, { id: label }), message: messageOf(error), key: `tabs-${tabId}` });
      return false;
    }
  };
}
