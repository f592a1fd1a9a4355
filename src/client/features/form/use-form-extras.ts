import errorsText from '../../../../schemas/text/errors.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { answersStore } from '../../session/answers-store.ts';
import { saveAddAnother, saveTab } from './api/form-extras-api.ts';

/** Raises an add-another count here and on the server ('Error adding another {id}' on failure). */
export function useAddAnother() {
  const toast = useToast();
  return async (buttonId: string, count: number) => {
    const previous = answersStore.getExtras().addAnother[buttonId] ?? 1;
    answersStore.setAddAnother(buttonId, count);
    try {
      await saveAddAnother(buttonId, count);
    } catch (error) {
      answersStore.setAddAnother(buttonId, previous);
      toast({ severity: 'error', title: fillTemplate(errorsText.toast.add_another_error, { id: buttonId }), message: messageOf(error), key: `add-${buttonId}` });
    }
  };
}

/** Saves a tab choice ('Error handling tabs for {default tab}' on failure). */
export function useChooseTab() {
  const toast = useToast();
  return async (tabId: string, tab: string, defaultTab: string) => {
    const previous = answersStore.getExtras().tabs[tabId];
    answersStore.setTab(tabId, tab);
    try {
      await saveTab(tabId, tab);
      return true;
    } catch (error) {
      answersStore.setTab(tabId, previous ?? defaultTab);
      toast({ severity: 'error', title: fillTemplate(errorsText.toast.tabs_error, { id: defaultTab }), message: messageOf(error), key: `tabs-${tabId}` });
      return false;
    }
  };
}
