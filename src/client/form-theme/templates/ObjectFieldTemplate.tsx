import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import { keysOf } from '../part-data.ts';
import type { FormContext } from '../form-context.ts';

/**
 * A block of answers inside a section: its title and description, and its fields in a
 * grid. A block whose answers are all hidden disappears with its title.
 */
export default function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { schema, uiSchema, properties, registry, fieldPathId } = props;
  const context = registry.formContext as FormContext;
  const keys = keysOf(schema as Record<string, unknown>);
  if (keys.length && keys.every((key) => context.hidden.has(key))) return null;
  const isRoot = fieldPathId.path.length === 0;
  const title = isRoot ? undefined : (uiSchema?.['ui:title'] as string | undefined) ?? schema.title;
  const inline = Boolean((uiSchema?.['ui:options'] as { inline?: boolean } | undefined)?.inline);
  const Heading = 'h3';
  // a titled block is a named group, so "City" is heard as "Mailing Address, City" (WCAG 1.3.1)
  const titleId = title ? `${fieldPathId.$id}-title` : undefined;
  return (
    <div
      className={`form-group${isRoot ? ' form-group-root' : ''}${inline ? ' form-group-inline' : ''}`}
      role={title ? 'group' : undefined}
      aria-labelledby={titleId}
    >
      {title && <Heading className="group-title" id={titleId}>{title}</Heading>}
      {schema.description && !isRoot && <p className="group-description">{schema.description}</p>}
      <div className="form-grid">
        {properties.filter((property) => !property.hidden).map((property) => property.content)}
      </div>
    </div>
  );
}
