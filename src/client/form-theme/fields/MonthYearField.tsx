import type { FieldProps, WidgetProps } from '@rjsf/utils';
import { evaluateCondition } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import type { FormContext } from '../form-context.ts';
import SelectWidget from '../widgets/SelectWidget.tsx';

/** A month and a year, two answers shown as one question (spec "month/year composite"). */
export default function MonthYearField(props: FieldProps) {
  const { schema, formData, onChange, registry, errorSchema, fieldPathId, uiSchema } = props;
  const context = registry.formContext as FormContext;
  const [monthKey, yearKey] = Object.keys(schema.properties ?? {}) as [string, string];
  if (context.hidden.has(monthKey) && context.hidden.has(yearKey)) return null;
  const data = (formData ?? {}) as Record<string, string | undefined>;
  const errorsOf = (key: string) => ((errorSchema as Record<string, { __errors?: string[] }> | undefined)?.[key]?.__errors ?? []);
  const errors = [...new Set([...errorsOf(monthKey), ...errorsOf(yearKey)])];
  const field = form.fields[monthKey];
  const required = Boolean(field?.required || field?.requiredWhen?.some((condition) => evaluateCondition(context.answers, condition)));
  const title = String(uiSchema?.['ui:title'] ?? schema.title ?? '');

  const select = (key: string) => {
    const child = (schema.properties as Record<string, { title?: string }>)[key]!;
    const widgetProps = {
      name: key, id: key, value: data[key] ?? '', label: child.title ?? key, schema: child, uiSchema: {}, options: {},
      rawErrors: errorsOf(key), registry, required, readonly: Boolean(props.readonly), disabled: Boolean(props.disabled),
      onChange: (value: string) => onChange({ ...data, [key]: value || undefined }, fieldPathId.path),
      onBlur: () => {}, onFocus: () => {},
    } as unknown as WidgetProps;
    return (
      <div className="month-year-part">
        <label className="field-sublabel" htmlFor={key}>{child.title}</label>
        <SelectWidget {...widgetProps} />
      </div>
    );
  };

  return (
    <fieldset className={`form-field field-monthYear${errors.length ? ' has-error' : ''}`} data-field-key={monthKey}>
      <legend className="field-label">
        {title}
        {required && <><span className="required-mark" aria-hidden="true"> *</span><span className="visually-hidden"> (required)</span></>}
      </legend>
      <div className="month-year">
        {select(monthKey)}
        {select(yearKey)}
      </div>
      {errors.length > 0 && (
        <div className="field-error" id={`${monthKey}-error`}>{errors.map((message) => <div key={message}>{message}</div>)}</div>
      )}
    </fieldset>
  );
}
