import type { FieldTemplateProps } from '@rjsf/utils';
import a11y from '../../../../schemas/text/accessibility.json';
import { SpokenSpace } from '../../lib/spoken-space.tsx';
import { FieldError } from './FieldError.tsx';
import { isAnswered } from '../../../shared/answers/conditions.ts';
import { contextOf, isRequiredNow } from '../form-context.ts';

const SELF_LABELLED = new Set(['checkbox']);
const GROUPED = new Set(['radio']);

function keyOf(props: FieldTemplateProps): string {
  const path = props.fieldPathId.path;
  return String(path[path.length - 1] ?? '');
}

/**
 * Every answer: its label (a legend for a group of radios), a required mark that follows
 * the schema's conditions, its description, the input, its help text and its messages,
 * tied together by ids.
 */
export default function FieldTemplate(props: FieldTemplateProps) {
  const { schema, uiSchema, children, rawErrors } = props;
  if (schema.type === 'object') return children;
  const context = contextOf(props);
  const key = keyOf(props);
  const id = context.idsAreKeys ? key : props.id;
  if (context.hidden.has(key)) return null;
  const widget = String(uiSchema?.['ui:widget'] ?? 'text');
  if (widget === 'hidden') return null;

  const required = isRequiredNow(key, context, props.required);
  const errors = [...(rawErrors ?? []), ...(context.localErrors[key] ? [context.localErrors[key]!] : [])];
  const uniqueErrors = [...new Set(errors)];
  const help = uiSchema?.['ui:help'] as string | undefined;
  const description = (uiSchema?.['ui:description'] as string | undefined) ?? schema.description;
  const label = String(schema.title ?? key);
  const width = (uiSchema?.['ui:options'] as { width?: string } | undefined)?.width;
  const className = `form-field field-${widget}${width ? ` field-width-${width}` : ''}${uniqueErrors.length ? ' has-error' : ''}`;
  const mark = required ? <span className="required-mark" aria-hidden="true"> *</span> : null;
  // inputs carry aria-required; a group's legend and a box's label say it in words
  const requiredText = required ? <SpokenSpace after={a11y.required_suffix} /> : null;

  const body = (
    <>
      {description && <div className="field-description" id={`${id}-description`}>{description}</div>}
      {children}
      {help && <div className="field-help" id={`${id}-help`}>{help}</div>}
      <FieldError id={`${id}-error`} messages={uniqueErrors} />
    </>
  );

  if (context.serviceView) {
    return (
      <div className="form-field service-field" data-field-key={key}>
        {widget !== 'checkbox' && <div className="field-label">{label}</div>}
        {children}
      </div>
    );
  }
  if (GROUPED.has(widget)) {
    return (
      <fieldset className={className} data-field-key={key}>
        <legend className="field-label" id={`${id}-label`}>{label}{mark}{requiredText}</legend>
        {body}
      </fieldset>
    );
  }
  return (
    <div className={className} data-field-key={key} data-answered={isAnswered(props.formData) || undefined}>
      {!SELF_LABELLED.has(widget) && (
        <label className="field-label" htmlFor={id} id={`${id}-label`}>{label}{mark}</label>
      )}
      {body}
    </div>
  );
}
