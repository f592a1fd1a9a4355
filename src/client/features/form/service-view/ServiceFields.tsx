import type { FieldProps } from '@rjsf/utils';
import type { FormContext } from '../../../form-theme/form-context.ts';
import { fillTemplate } from '../../../../shared/text/fill-template.ts';
import { displayValue, formats, mark } from './service-value.ts';

/** Service-view versions of the composite questions. */
export function ServiceMonthYearField({ schema, formData, registry, uiSchema }: FieldProps) {
  const context = registry.formContext as FormContext;
  const [monthKey, yearKey] = Object.keys(schema.properties ?? {}) as [string, string];
  if (context.hidden.has(monthKey)) return null;
  const data = (formData ?? {}) as Record<string, string>;
  const month = displayValue(monthKey, data[monthKey], context.answers);
  const year = data[yearKey] ?? '';
  // "octubre de 2026": the pair as the language writes it; either alone as it is
  const text = month && year ? fillTemplate(formats.month_year, { month, year }) : month || year;
  return (
    <div className="form-field service-field" data-field-key={monthKey}>
      <div className="field-label">{String(uiSchema?.['ui:title'] ?? schema.title ?? '')}</div>
      <span className="service-value">{text || '\u2014'}</span>
    </div>
  );
}

export function ServiceCheckGroupField({ schema, formData, registry, uiSchema }: FieldProps) {
  const context = registry.formContext as FormContext;
  const entries = Object.entries((schema.properties ?? {}) as Record<string, { title?: string }>);
  if (entries.every(([key]) => context.hidden.has(key))) return null;
  const data = (formData ?? {}) as Record<string, boolean>;
  return (
    <div className="form-field service-field" data-field-key={entries[0]?.[0]}>
      <div className="field-label">{String(uiSchema?.['ui:title'] ?? schema.title ?? '')}</div>
      <ul className="service-choices">
        {entries.map(([key, child]) => <li key={key}>{mark(data[key] === true)} {child.title}</li>)}
      </ul>
    </div>
  );
}

/** The school block: the name with its CEEB code (formats.school_with_code), then its address. */
export function ServiceSchoolField({ schema, formData, registry }: FieldProps) {
  const context = registry.formContext as FormContext;
  const keys = Object.keys(schema.properties ?? {});
  if (keys.every((key) => context.hidden.has(key))) return null;
  const data = (formData ?? {}) as Record<string, string>;
  const nameKey = keys.find((key) => key.endsWith('name'))!;
  const ceebKey = keys.find((key) => key.endsWith('ceeb'));
  const name = data[nameKey] ?? '';
  const ceeb = ceebKey ? data[ceebKey] : '';
  const place = keys.filter((key) => key !== nameKey && key !== ceebKey)
    .map((key) => displayValue(key, data[key], context.answers)).filter(Boolean).join(', ');
  return (
    <div className="form-field service-field" data-field-key={nameKey}>
      <div className="field-label">{String((schema.properties as Record<string, { title?: string }>)[nameKey]?.title ?? '')}</div>
      <span className="service-value">{name ? (ceeb ? fillTemplate(formats.school_with_code, { name, code: ceeb }) : name) : '\u2014'}</span>
      {place && <div className="service-value service-address">{place}</div>}
    </div>
  );
}
