import { Checkbox } from '@blueprintjs/core';
import type { FieldProps } from '@rjsf/utils';
import a11y from '../../../../schemas/text/accessibility.json';
import { contextOf, isRequiredNow } from '../form-context.ts';
import { FieldError } from '../templates/FieldError.tsx';
import { SpokenSpace } from '../../lib/spoken-space.tsx';

/** Several yes/no answers under one question (races, course levels, grades): a fieldset and its legend. */
export default function CheckGroupField(props: FieldProps) {
  const { schema, formData, onChange, fieldPathId, uiSchema, errorSchema } = props;
  const context = contextOf(props);
  const entries = Object.entries((schema.properties ?? {}) as Record<string, { title?: string }>);
  if (entries.every(([key]) => context.hidden.has(key))) return null;
  const data = (formData ?? {}) as Record<string, boolean | undefined>;
  const inline = Boolean((uiSchema?.['ui:options'] as { inline?: boolean } | undefined)?.inline);
  const firstKey = entries[0]?.[0] ?? '';
  const errors = [...new Set(entries.flatMap(([key]) => (errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[key]?.__errors ?? []))];
  const schemaRequired = new Set((schema.required ?? []) as string[]);
  const required = entries.some(([key]) => isRequiredNow(key, context, schemaRequired.has(key)));
  const errorId = `${firstKey}-error`;
  return (
    <fieldset className={`form-field field-checkGroup${errors.length ? ' has-error' : ''}`} data-field-key={firstKey}>
      <legend className="field-label">
        {String(uiSchema?.['ui:title'] ?? schema.title ?? '')}
        {required && <><span className="required-mark" aria-hidden="true"> *</span><SpokenSpace after={a11y.required_suffix} /></>}
      </legend>
      <div className={inline ? 'check-group check-group-inline' : 'check-group'}>
        {entries.map(([key, child]) => (
          <Checkbox
            key={key}
            id={key}
            name={key}
            label={child.title ?? key}
            checked={data[key] === true}
            disabled={Boolean(props.disabled || props.readonly)}
            inline={inline}
            className={errors.length ? 'check-invalid' : undefined}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={errors.length ? errorId : undefined}
            onChange={(event) => onChange({ ...data, [key]: event.currentTarget.checked }, fieldPathId.path)}
          />
        ))}
      </div>
      <FieldError id={errorId} messages={errors} />
    </fieldset>
  );
}
