import { Checkbox } from '@blueprintjs/core';
import type { FieldProps } from '@rjsf/utils';
import type { FormContext } from '../form-context.ts';

/** Several yes/no answers under one question (races, course levels, grades). */
export default function CheckGroupField(props: FieldProps) {
  const { schema, formData, onChange, registry, fieldPathId, uiSchema } = props;
  const context = registry.formContext as FormContext;
  const entries = Object.entries((schema.properties ?? {}) as Record<string, { title?: string }>);
  if (entries.every(([key]) => context.hidden.has(key))) return null;
  const data = (formData ?? {}) as Record<string, boolean | undefined>;
  const inline = Boolean((uiSchema?.['ui:options'] as { inline?: boolean } | undefined)?.inline);
  return (
    <fieldset className="form-field field-checkGroup" data-field-key={entries[0]?.[0]}>
      <legend className="field-label">{String(uiSchema?.['ui:title'] ?? schema.title ?? '')}</legend>
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
            onChange={(event) => onChange({ ...data, [key]: event.currentTarget.checked }, fieldPathId.path)}
          />
        ))}
      </div>
    </fieldset>
  );
}
