import { Icon } from '@blueprintjs/core';
import { useRef } from 'react';
import frame from '../../../../schemas/text/frame.json';
import type { SaveState } from '../../session/save-queue.ts';
import { useSaveState } from '../../session/session-hooks.ts';
import { useChangedElsewhere } from './use-changed-elsewhere.ts';

const text = frame.save_status;
const labels: Record<SaveState, string> = {
  // nothing while it looks for answers an earlier page left: never "saved" before that (and the server's drawing says nothing)
  restoring: '', saved: text.saved, saving: text.saving, pending: text.pending, offline: text.offline,
  failed: text.failed, logged_out: text.logged_out, submitted: '',
};
const TROUBLE = new Set<SaveState>(['offline', 'failed', 'logged_out']);

/**
 * Says plainly whether the answers are saved, and keeps saying it while they are not.
 * The words are read where they stand; a polite live region announces "All changes saved"
 * when a save ends and any trouble (offline, failed, logged out), never "Changes not saved
 * yet" or "Saving..." on each burst of typing (WCAG 4.1.3).
 */
export function SaveStatus() {
  const state = useSaveState();
  useChangedElsewhere();
  const trouble = TROUBLE.has(state);
  // worked out once per change of state, so a second render says the same
  const memory = useRef({ state, announced: '', troubleSeen: false });
  if (memory.current.state !== state) {
    const seen = memory.current.troubleSeen || trouble;
    // a save that ended (from saving or from a trouble), not the state a page opened with
    const ended = state === 'saved' && (memory.current.state === 'saving' || seen);
    const announced = trouble ? labels[state] : ended ? labels.saved : '';
    memory.current = { state, announced, troubleSeen: state === 'saved' ? false : seen };
  }
  const { announced } = memory.current;
  return (
    <div className={`save-status save-status-${state}`} data-save-state={state}>
      {labels[state] && (
        <span className="save-status-text">
          <Icon aria-hidden icon={trouble ? 'warning-sign' : state === 'saved' ? 'tick' : 'circle'} intent={trouble ? 'warning' : state === 'saved' ? 'success' : 'none'} />{' '}
          {labels[state]}
        </span>
      )}
      <span className="visually-hidden" role="status">{announced}</span>
    </div>
  );
}
