import type { InputHTMLAttributes } from 'react';

type FieldInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'className'> & {
  invalid: boolean;
  onValueChange(value: string): void;
};

/**
 * Blueprint's InputGroup markup (the same classes, so its styles apply) without its
 * component: an InputGroup measures its side elements after mounting and renders again,
 * once per field on a first visit, and our fields have none.
 */
export function FieldInput({ invalid, disabled, readOnly, onValueChange, ...input }: FieldInputProps) {
  const group = ['bp6-input-group', invalid && 'bp6-intent-danger', disabled && 'bp6-disabled', readOnly && 'bp6-read-only'].filter(Boolean).join(' ');
  return (
    <div className={group}>
      <input
        type="text"
        {...input}
        disabled={disabled}
        readOnly={readOnly}
        aria-disabled={disabled}
        className="bp6-input"
        onChange={(event) => onValueChange(event.target.value)}
      />
    </div>
  );
}
