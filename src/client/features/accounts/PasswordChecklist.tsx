import { Icon } from '@blueprintjs/core';
import a11y from '../../../../schemas/text/accessibility.json';
import { passwordChecklist } from '../../../shared/auth/auth-forms.ts';

/**
 * The live password rules. Inactive (grey) while the password is empty; then each line
 * shows success or error. The rules and their texts come from schemas/auth/definitions.json.
 * The field is described by the heading and the list's own words ("... (not yet)"), so a
 * screen reader reads which rules the password still fails (a list's name would hide them).
 */
export function PasswordChecklist({ password, id }: { password: string; id: string }) {
  const items = passwordChecklist(password);
  const inactive = password.length === 0;
  return (
    <>
    <span className="visually-hidden" id={`${id}-title`}>{a11y.password_requirements}:</span>
    <ul className="password-checklist" id={id}>
      {items.map((item) => {
        const state = inactive ? 'inactive' : item.met ? 'met' : 'unmet';
        return (
          <li key={item.label} className={`checklist-item checklist-${state}`} data-state={state}>
            <Icon
              icon={state === 'met' ? 'tick-circle' : state === 'unmet' ? 'error' : 'circle'}
              intent={state === 'met' ? 'success' : state === 'unmet' ? 'danger' : 'none'}
              aria-hidden
            />
            <span className="checklist-label">{item.label}</span>
            <span className="visually-hidden">{state === 'met' ? a11y.checklist_met : state === 'unmet' ? a11y.checklist_unmet : ''}</span>
          </li>
        );
      })}
    </ul>
    </>
  );
}
