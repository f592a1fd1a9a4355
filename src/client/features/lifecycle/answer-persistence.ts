import { answersStore } from '../../session/answers-store.ts';
import { keepAnonymousAnswers } from '../../session/carried-answers.ts';
import { registerBeforeLogout } from '../../session/end-session.ts';
import { flush, saveQueue } from '../../session/save-queue.ts';

let connected = false;
let anonymousTimer: number | undefined;

function keepNow(): void {
  window.clearTimeout(anonymousTimer);
  anonymousTimer = undefined;
  keepAnonymousAnswers(answersStore.get());
}

/**
 * Where an applicant's changes go: to the save queue when logged in, to this tab's
 * storage when anonymous. Connected once, when the application pages first open.
 */
export function connectAnswerPersistence(isLoggedIn: () => boolean): void {
  if (connected) return;
  connected = true;
  answersStore.subscribe((changed, source) => {
    if (source !== 'change') return;
    if (isLoggedIn()) {
      saveQueue.enqueue(changed);
    } else {
      window.clearTimeout(anonymousTimer);
      anonymousTimer = window.setTimeout(keepNow, 200);
    }
  });
  // a reload or a closed tab within the pause keeps the last keystrokes too
  window.addEventListener('pagehide', () => {
    if (anonymousTimer !== undefined) keepNow();
  });
  registerBeforeLogout(flush);
}
