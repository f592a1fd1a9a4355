import { Icon } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import a11y from '../../../../schemas/text/accessibility.json';
import { passwordChecklist } from '../../../shared/auth/auth-forms.ts';
import { SpokenSpace } from '../../lib/spoken-space.tsx';

type RuleState = 'inactive' | 'met' | 'unmet';

const stateWord = (state: RuleState) => (state === 'met' ? a11y.checklist_met : state === 'unmet' ? a11y.checklist_unmet : '');

function statesOf(password: string): { label: string; state: RuleState }[] {
  return passwordChecklist(password).map((item) => ({ label: item.label, state: password.length === 0 ? 'inactive' : item.met ? 'met' : 'unmet' }));
}

/**
 * The live password rules. Inactive (grey) while the password is empty; then each line
 * shows success or error. The rules and their texts come from schemas/auth/definitions.json.
 *
 * For a screen reader: the field is described by the rules as they stood when it took the
 * focus ("... (not yet)"), a text that does not change while typing (a description that
 * changes is read again whole, at every key that changes a rule); what a key changed is
 * said once, rule by rule: a rule now met, or met no longer. `describedAs` is the password
 * at that moment.
 */
export function PasswordChecklist({ password, describedAs, id }: { password: string; describedAs: string; id: string }) {
  const items = statesOf(password);
  const announced = useChangedRules(items);
  return (
    <>
      <span className="visually-hidden" id={`${id}-title`}>{a11y.password_requirements}:</span>
      {/* read as the field's description only (hidden: Say All reads the list below instead) */}
      <span hidden id={`${id}-described`}>
        {statesOf(describedAs).map((item) => `${item.label}${item.state === 'inactive' ? '' : `\u00a0${stateWord(item.state)}`}`).join('; ')}
      </span>
      <ul className="password-checklist" id={id}>
        {items.map(({ label, state }) => (
          <li key={label} className={`checklist-item checklist-${state}`} data-state={state}>
            <Icon
              icon={state === 'met' ? 'tick-circle' : state === 'unmet' ? 'error' : 'circle'}
              intent={state === 'met' ? 'success' : state === 'unmet' ? 'danger' : 'none'}
              aria-hidden
            />
            <span className="checklist-label">{label}</span>
            {state !== 'inactive' && <SpokenSpace after={stateWord(state)} />}
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status">{announced}</span>
    </>
  );
}

/** The rules the last change met, or unmet after being met; a rule merely no longer idle was heard with the description. */
function useChangedRules(items: { label: string; state: RuleState }[]): string {
  const before = useRef(items);
  const [announced, setAnnounced] = useState('');
  const key = items.map((item) => item.state).join();
  useEffect(() => {
    const changed = items.filter((item, index) => {
      const was = before.current[index]?.state;
      return was !== item.state && (item.state === 'met' || was === 'met');
    });
    before.current = items;
    if (changed.length) setAnnounced(changed.map((item) => `${item.label}\u00a0${stateWord(item.state)}`).join('. '));
    // only when a rule's state changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return announced;
}
