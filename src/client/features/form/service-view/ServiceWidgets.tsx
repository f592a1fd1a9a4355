import type { WidgetProps } from '@rjsf/utils';
import { documentRules } from '../../../../shared/documents/file-rules.ts';
import { form } from '../../../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../../../shared/text/fill-template.ts';
import { choicesOf, type FormContext } from '../../../form-theme/form-context.ts';
import { displayValue, mark } from './service-value.ts';

/** The read-only service view (spec "PDF / service view"): plain text, [X] and [ ], no controls. */
export function ServiceTextWidget({ name, value, registry }: WidgetProps) {
  const context = registry.formContext as FormContext;
  return <span className="service-value" id={name}>{displayValue(name, value, context.answers) || '\u2014'}</span>;
}

export function ServiceChoiceWidget(props: WidgetProps) {
  const { name, value } = props;
  const items = choicesOf(props);
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
      {value === 'ANSWERED' ? fillTemplate(documentRules.messages.attached, { key: form.fields[name]?.title ?? name }) : '\u2014'}
    </span>
  );
}
