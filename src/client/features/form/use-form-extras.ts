import errorsText from '../../../../schemas/text/errors.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { ServerError, messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useApplicationSession } from '../../session/session-hooks.ts';
import { removeAnother, saveAddAnother, saveTab } from './api/form-extras-api.ts';

/** A press refused because another device or tab changed the list or tab first: the page shows what is stored and says so. */
const isStale = (error: unknown): error is ServerError => error instanceof ServerError && (error.code === 'STALE_COUNT' || error.code === 'STALE_TAB');

/**
 * Changes an add-another count here and on the server, from the count the page showed (a
 * count changed elsewhere meanwhile is refused, and the page then shows the stored list). A
 * lower count (a group hidden) waits for the answers it cleared to be saved first: the server
 * never hides an item that holds answers. Says whether it was saved; on failure a toast named
 * by the button's label, not its id.
 */
export function useAddAnother() {
  const toast = useToast();
  const session = useApplicationSession();
  const { answers: answersStore } = session;
  return async (buttonId: string, count: number, label = buttonId) => {
    const previous = answersStore.getExtras().addAnother[buttonId] ?? 1;
    answersStore.setAddAnother(buttonId, count);
    try {
      if (count < previous) await session.flush();
      await saveAddAnother(buttonId, count, previous);
      return true;
    } catch (error) {
      answersStore.setAddAnother(buttonId, previous);
      if (isStale(error)) {
        void session.listChangedElsewhere(error.message);
      } else {
        toast({ severity: 'error', title: fillTemplate(errorsText.toast.add_another_error, { id: label }), message: messageOf(error), key: `add-${buttonId}` });
      }
      return false;
    }
  };
}

/**
 * Removes one item of an add-another list on the server, where the items after it move up
 * on the stored answers; the page shows what the server answers. What this page typed is
 * saved first, so the move carries it.
 */
export function useRemoveAnother() {
  const toast = useToast();
  const session = useApplicationSession();
  return async (buttonId: string, instance: number, label: string) => {
    const seen = session.answers.getExtras().addAnother[buttonId] ?? 1;
    try {
      if (!(await session.flush())) throw new ServerError(errorsText.standard, 0, 'NETWORK');
      const reply = await removeAnother(buttonId, instance, seen);
      session.applyStored(reply.answer, reply.answer_clock);
      session.answers.setAddAnother(buttonId, reply.num_components);
      return true;
    } catch (error) {
      if (isStale(error)) {
        void session.listChangedElsewhere(error.message);
      } else {
        toast({ severity: 'error', title: fillTemplate(errorsText.toast.add_another_error, { id: label }), message: messageOf(error), key: `add-${buttonId}` });
      }
      return false;
    }
  };
}

/** Saves a tab choice, from the tab the page showed (on failure a toast named by the tab's title, not its id). */
export function useChooseTab() {
  const toast = useToast();
  const session = useApplicationSession();
  const { answers: answersStore } = session;
  return async (tabId: string, tab: string, defaultTab: string, label = defaultTab) => {
    const previous = answersStore.getExtras().tabs[tabId];
    answersStore.setTab(tabId, tab);
    try {
      await saveTab(tabId, tab, previous ?? defaultTab);
      return true;
    } catch (error) {
      answersStore.setTab(tabId, previous ?? defaultTab);
      if (isStale(error)) {
        void session.listChangedElsewhere(error.message);
      } else {
        toast({ severity: 'error', title: fillTemplate(errorsText.toast.tabs_error, { id: label }), message: messageOf(error), key: `tabs-${tabId}` });
      }
      return false;
    }
  };
}
