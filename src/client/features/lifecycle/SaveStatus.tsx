import { Icon } from '@blueprintjs/core';
import { useRef, useSyncExternalStore } from 'react';
import frame from '../../../../schemas/text/frame.json';
import { saveQueue, type SaveState } from '../../session/save-queue.ts';

const text = frame.save_status;
const labels: Record<SaveState, string> = {
  saved: text.saved, saving: text.saving, pending: text.pending, offline: text.offline,
  failed: text.failed, logged_out: text.logged_out, submitted: '',
};
const TROUBLE = new Set<SaveState>(['offline', 'failed', 'logged_out']);

/**
 * Says plainly whether the answers are saved, and keeps saying it while they are not.
 * Screen readers hear a trouble (offline, failed, logged out) and its end, not every
 * autosave while the applicant types.
 */
export function SaveStatus() {
  const state = useSyncExternalStore(saveQueue.subscribe, saveQueue.state);
  const trouble = TROUBLE.has(state);
  // worked out once per change of state, so a second render says the same
  const memory = useRef({ state, announced: '', troubleSeen: false });
  if (memory.current.state !== state) {
    const seen = memory.current.troubleSeen || trouble;
    const announced = trouble ? labels[state] : state === 'saved' && seen ? labels.saved : '';
    memory.current = { state, announced, troubleSeen: state === 'saved' ? false : seen };
  }
  const { announced } = memory.current;
  return (
    <div className={`save-status save-status-${state}`} data-save-state={state}>
      {labels[state] && (
        <span aria-hidden="true">
          <Icon icon={trouble ? 'warning-sign' : state === 'saved' ? 'tick' : 'circle'} intent={trouble ? 'warning' : state === 'saved' ? 'success' : 'none'} />{' '}
          {labels[state]}
        </span>
      )}
      <span className="visually-hidden" role="status">{announced}</span>
    </div>
  );
}
