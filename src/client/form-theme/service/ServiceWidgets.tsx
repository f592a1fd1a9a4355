import type { WidgetProps } from '@rjsf/utils';
import { documentRules } from '../../../shared/documents/file-rules.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { fieldOptions } from '../field-options.ts';
import type { FormContext } from '../form-context.ts';
import { displayValue, mark } from './service-value.ts';

/** The read-only service view (spec "PDF / service view"): plain text, [X] and [ ], no controls. */
export function ServiceTextWidget({ name, value, registry }: WidgetProps) {
  const context = registry.formContext as FormContext;
  return <span className="service-value" id={name}>{displayValue(name, value, context.answers) || '\u2014'}</span>;
}

export function ServiceChoiceWidget({ name, value, registry }: WidgetProps) {
  const context = registry.formContext as FormContext;
  const items = fieldOptions(name, context);
  return (
    <ul className="service-choices" id={name}>
      {items.map((item) => <li key={item.value}>{mark(item.value === value)} {item.label}</li>)}
    </ul>
  );
}

export function ServiceCheckboxWidget({ name, value, label, schema }: WidgetProps) {
  return <span className="service-value" id={name}>{mark(value === true)} {label || String(schema.title ?? '')}</span>;
}

export function ServiceFileWidget({ name, value }: WidgetProps) {
  return (
    <span className="service-value" id={name}>
      {value === 'ANSWERED' ? fillTemplate(documentRules.messages.attached, { key: name }) : '\u2014'}
    </span>
  );
}
