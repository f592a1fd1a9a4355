import type { FieldProps, WidgetProps } from '@rjsf/utils';
import a11y from '../../../../schemas/text/accessibility.json';
import { contextOf, isRequiredNow } from '../form-context.ts';
import { FieldError } from '../templates/FieldError.tsx';
import SelectWidget from '../widgets/SelectWidget.tsx';
import { SpokenSpace } from '../../lib/spoken-space.tsx';

/**
 * A month and a year, two answers shown as one question (spec "month/year composite"):
 * a fieldset whose legend is the question; each list is labelled "Month" or "Year" and
 * described by the question's help and its one block of messages.
 */
export default function MonthYearField(props: FieldProps) {
  const { schema, formData, onChange, registry, errorSchema, fieldPathId, uiSchema } = props;
  const context = contextOf(props);
  const [monthKey, yearKey] = Object.keys(schema.properties ?? {}) as [string, string];
  if (context.hidden.has(monthKey) && context.hidden.has(yearKey)) return null;
  const data = (formData ?? {}) as Record<string, string | undefined>;
  const errorsOf = (key: string) => ((errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[key]?.__errors ?? []);
  const errors = [...new Set([...errorsOf(monthKey), ...errorsOf(yearKey)])];
  const schemaRequired = new Set((schema.required ?? []) as string[]);
  const required = isRequiredNow(monthKey, context, schemaRequired.has(monthKey));
  const title = String(uiSchema?.['ui:title'] ?? schema.title ?? '');
  const help = uiSchema?.['ui:help'] as string | undefined;
  const errorId = `${monthKey}-error`;
  const helpId = `${monthKey}-help`;
  // each list is described by the help, and by the messages when they are about its answer
  const describedBy = (key: string) => [help ? helpId : '', errorsOf(key).length ? errorId : ''].filter(Boolean).join(' ') || undefined;

  const select = (key: string) => {
    const child = (schema.properties as Record<string, { title?: string }>)[key]!;
    const widgetProps = {
      name: key, id: key, value: data[key] ?? '', label: child.title ?? key, schema: child, uiSchema: {}, options: {},
      rawErrors: errorsOf(key), registry, required: required || isRequiredNow(key, context, schemaRequired.has(key)),
      readonly: Boolean(props.readonly), disabled: Boolean(props.disabled),
      onChange: (value: string) => onChange({ ...data, [key]: value || undefined }, fieldPathId.path),
      onBlur: () => {}, onFocus: () => {},
    } as unknown as WidgetProps;
    return (
      <div className="month-year-part">
        <label className="field-sublabel" htmlFor={key}>{child.title}</label>
        <SelectWidget {...widgetProps} describedBy={describedBy(key)} />
      </div>
    );
  };

  return (
    <fieldset className={`form-field field-monthYear${errors.length ? ' has-error' : ''}`} data-field-key={monthKey}>
      <legend className="field-label" id={`${monthKey}-label`}>
        {title}
        {required && <><span className="required-mark" aria-hidden="true"> *</span><SpokenSpace after={a11y.required_suffix} /></>}
      </legend>
      <div className="month-year">
        {select(monthKey)}
        {select(yearKey)}
      </div>
      {help && <div className="field-help" id={helpId}>{help}</div>}
      <FieldError id={errorId} messages={errors} />
    </fieldset>
  );
}
