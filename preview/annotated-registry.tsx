import type { FieldTemplateProps, RJSFSchema } from '@rjsf/utils';
import { formRegistry } from '../src/client/app/form-registry.ts';
import type { FormRegistry } from '../src/client/features/form/form-registry-context.ts';
import { contextOf } from '../src/client/form-theme/form-context.ts';
import { FieldNotes, SectionRuleBanner } from './FieldNotes.tsx';

const ThemeFieldTemplate = formRegistry.edit.templates.FieldTemplate!;

/**
 * The app's own field template, with the preview's notes around it: the question is drawn
 * exactly as applicants see it, the notes beside it.
 */
/** Fields of the theme that draw several answers themselves, with no template per answer (a month and a year, a group of boxes). */
const SELF_DRAWN = new Set(['monthYear', 'checkGroup']);

function maxLengthOf(schema: RJSFSchema | undefined): number | undefined {
  return typeof schema?.maxLength === 'number' ? schema.maxLength : undefined;
}

function AnnotatedFieldTemplate(props: FieldTemplateProps) {
  const drawn = <ThemeFieldTemplate {...props} />;
  const path = props.fieldPathId.path;
  const key = String(path[path.length - 1] ?? '');
  const hidden = contextOf(props).hidden;
  if (props.schema.type === 'object') {
    if (!SELF_DRAWN.has(String(props.uiSchema?.['ui:field']))) return drawn;
    const inner = Object.entries(props.schema.properties ?? {}).filter(([name]) => !hidden.has(name));
    if (!inner.length) return drawn;
    return (
      <div className="preview-field" data-preview-key={inner.map(([name]) => name).join(' ')}>
        {inner.map(([name]) => <SectionRuleBanner key={name} fieldKey={name} />)}
        {drawn}
        {inner.map(([name, schema]) => <FieldNotes key={name} fieldKey={name} maxLength={maxLengthOf(schema as RJSFSchema)} />)}
      </div>
    );
  }
  if (hidden.has(key) || props.uiSchema?.['ui:widget'] === 'hidden') return drawn;
  return (
    <div className="preview-field" data-preview-key={key}>
      <SectionRuleBanner fieldKey={key} />
      {drawn}
      <FieldNotes fieldKey={key} maxLength={maxLengthOf(props.schema)} />
    </div>
  );
}

/** The form registry the pages render with, its field template annotated. */
export const annotatedRegistry: FormRegistry = {
  ...formRegistry,
  edit: { ...formRegistry.edit, templates: { ...formRegistry.edit.templates, FieldTemplate: AnnotatedFieldTemplate } },
};
