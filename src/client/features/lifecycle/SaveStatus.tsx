import { Icon } from '@blueprintjs/core';
import { useSyncExternalStore } from 'react';
import frame from '../../../../schemas/text/frame.json';
import { saveQueue, type SaveState } from '../../session/save-queue.ts';

const text = frame.save_status;
const labels: Record<SaveState, string> = {
  saved: text.saved, saving: text.saving, pending: text.pending, offline: text.offline,
  failed: text.failed, logged_out: text.logged_out, submitted: '',
};

/** Says plainly whether the answers are saved, and keeps saying it while they are not. */
export function SaveStatus() {
  const state = useSyncExternalStore(saveQueue.subscribe, saveQueue.state);
  const trouble = state === 'offline' || state === 'failed' || state === 'logged_out';
  return (
    <div className={`save-status save-status-${state}`} role="status" aria-live="polite" data-save-state={state}>
      {labels[state] && (
        <>
          <Icon icon={trouble ? 'warning-sign' : state === 'saved' ? 'tick' : 'circle'} intent={trouble ? 'warning' : state === 'saved' ? 'success' : 'none'} aria-hidden />{' '}
          {labels[state]}
        </>
      )}
    </div>
  );
}
