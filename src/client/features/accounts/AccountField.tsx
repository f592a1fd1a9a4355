import { Button, FormGroup, Icon, InputGroup } from '@blueprintjs/core';
import a11y from '../../../../schemas/text/accessibility.json';
import { useState } from 'react';
import type { AuthFieldSpec } from './auth-form-file.ts';
import { PasswordChecklist } from './PasswordChecklist.tsx';

interface Props {
  field: AuthFieldSpec;
  value: string;
  errors: string[] | undefined;
  /** the messages of the form's own rules (a checklist shows those of a typed password) */
  ruleErrors?: string[];
  /** said for an empty password with a checklist (the checklist is idle then) */
  requiredMessage?: string;
  onChange(value: string): void;
}

/** One labelled input of an account form, with its messages tied to it for screen readers. */
export function AccountField({ field, value, errors, ruleErrors = [], requiredMessage, onChange }: Props) {
  const [visible, setVisible] = useState(false);
  // the password the checklist describes the field with: as it was when the field took the focus
  const [describedAs, setDescribedAs] = useState(value);
  const id = `field-${field.key}`;
  const errorId = `${id}-error`;
  const checklistId = `${id}-checklist`;
  // with a checklist the checklist itself shows which rules a typed password fails; an empty
  // password (the checklist is idle then) and the server's refusals are said in words here
  const rest = (errors ?? []).filter((message) => !ruleErrors.includes(message));
  const shownErrors = !field.checklist ? errors ?? []
    : value === '' && errors?.length ? [requiredMessage ?? errors[0]!, ...rest] : rest;
  const invalid = (errors?.length ?? 0) > 0;
  const describedBy = [shownErrors.length ? errorId : '', field.checklist ? `${checklistId}-title ${checklistId}-described` : ''].filter(Boolean).join(' ') || undefined;
  const type = field.input === 'password' ? (visible ? 'text' : 'password') : field.input === 'email' ? 'email' : 'text';

  return (
    <FormGroup
      label={field.label}
      labelFor={id}
      intent={invalid ? 'danger' : 'none'}
      helperText={shownErrors.length ? (
        <span id={errorId} className="account-field-error">
          <Icon icon="error" size={14} aria-hidden />
          <span className="visually-hidden">{a11y.error_prefix}</span>
          <span>{shownErrors.join(' ')}</span>
        </span>
      ) : undefined}
      className="account-field"
    >
      <InputGroup
        id={id}
        name={field.key}
        type={type}
        value={value}
        size="large"
        autoComplete={field.autocomplete}
        inputMode={field.input === 'code' ? 'numeric' : field.input === 'email' ? 'email' : undefined}
        intent={invalid ? 'danger' : 'none'}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        aria-required
        onFocus={() => setDescribedAs(value)}
        // a code has no maxLength: pasted with words or spaces around it ("Your code: 123456"), only its digits count
        onValueChange={(next) => onChange(field.input === 'code' ? next.replace(/\D+/g, '').slice(0, 6) : next)}
        rightElement={field.input === 'password' ? (
          <Button
            variant="minimal"
            icon={visible ? 'eye-off' : 'eye-open'}
            // a toggle keeps its name; aria-pressed says whether the password is shown
            aria-label={a11y.show_password}
            aria-pressed={visible}
            onClick={() => setVisible(!visible)}
          />
        ) : undefined}
      />
      {field.checklist && <PasswordChecklist password={value} describedAs={describedAs} id={checklistId} />}
    </FormGroup>
  );
}
