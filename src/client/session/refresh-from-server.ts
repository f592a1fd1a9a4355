import type { AnswerValue } from '../../shared/answers/conditions.ts';
import { DESC_SUFFIX } from '../../shared/answers/key-naming.ts';
import type { AnswersStore } from './answers-store.ts';
import type { SessionApi } from './application-session.ts';
import type { SaveQueue } from './save-queue.ts';

/** What a page showed that another device or tab had changed: the answers' keys, the lists' buttons, the tab groups. */
export interface Refreshed {
  keys: string[];
  lists: string[];
  tabs: string[];
}

const same = (a: AnswerValue | undefined, b: AnswerValue | undefined) => (a ?? '') === (b ?? '');
type RefreshApi = Pick<SessionApi, 'fetchProfile' | 'fetchAddAnother' | 'fetchTabs'>;

/**
 * Reads the application again and shows what changed elsewhere since the page saw it:
 * answers whose stored change is newer than the one the page saw (leaving those it has
 * not saved yet as typed: their save is judged on its own), add-another counts and chosen
 * tabs. Run when the page comes back into view, so the phone picked up after the laptop
 * shows the laptop's answers before anything can be typed over them. Resolves null when
 * nothing shown changed; one read at a time.
 */
export function createRefresher(api: RefreshApi, answers: AnswersStore, queue: SaveQueue): () => Promise<Refreshed | null> {
  let running: Promise<Refreshed | null> | null = null;
  return () => {
    running ??= read(api, answers, queue).finally(() => {
      running = null;
    });
    return running;
  };
}

async function read(api: RefreshApi, answers: AnswersStore, queue: SaveQueue): Promise<Refreshed | null> {
  const extrasBefore = answers.getExtras();
  const [profile, addAnother, tabs] = await Promise.all([api.fetchProfile(), api.fetchAddAnother(), api.fetchTabs()]);
  const shown = answers.get();
  const values: Record<string, AnswerValue> = {};
  const clocks: Record<string, number> = {};
  for (const [key, clock] of Object.entries(profile.answer_clock)) {
    if (clock <= queue.seenClock(key) || queue.isPending(key)) continue;
    values[key] = profile.answer[key] ?? '';
    clocks[key] = clock;
  }
  queue.noteStored(clocks);
  const keys = Object.keys(values).filter((key) => !key.endsWith(DESC_SUFFIX) && !same(shown[key], values[key]));
  if (Object.keys(values).length) answers.applyFromServer(values);

  // a count or tab this page changed while the reads were on their way is its own, not stale
  const extras = answers.getExtras();
  const lists: string[] = [];
  const tabGroups: string[] = [];
  if (extras === extrasBefore) {
    for (const [buttonId, count] of Object.entries({ ...Object.fromEntries(Object.keys(extras.addAnother).map((id) => [id, 1])), ...addAnother })) {
      if ((extras.addAnother[buttonId] ?? 1) === count) continue;
      answers.setAddAnother(buttonId, count);
      lists.push(buttonId);
    }
    for (const [tabId, tab] of Object.entries(tabs)) {
      if (extras.tabs[tabId] === tab) continue;
      answers.setTab(tabId, tab);
      tabGroups.push(tabId);
    }
  }
  return keys.length || lists.length || tabGroups.length ? { keys, lists, tabs: tabGroups } : null;
}
