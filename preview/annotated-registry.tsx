import type { FieldTemplateProps } from '@rjsf/utils';
import { formRegistry } from '../src/client/app/form-registry.ts';
import type { FormRegistry } from '../src/client/features/form/form-registry-context.ts';
import { contextOf } from '../src/client/form-theme/form-context.ts';
import { FieldNotes, SectionRuleBanner } from './FieldNotes.tsx';

const ThemeFieldTemplate = formRegistry.edit.templates.FieldTemplate!;

/**
 * The app's own field template, with the preview's notes around it: the question is drawn
 * exactly as applicants see it, the notes beside it.
 */
function AnnotatedFieldTemplate(props: FieldTemplateProps) {
  const drawn = <ThemeFieldTemplate {...props} />;
  if (props.schema.type === 'object') return drawn;
  const path = props.fieldPathId.path;
  const key = String(path[path.length - 1] ?? '');
  if (contextOf(props).hidden.has(key) || props.uiSchema?.['ui:widget'] === 'hidden') return drawn;
  return (
    <div className="preview-field" data-preview-key={key}>
      <SectionRuleBanner fieldKey={key} />
      {drawn}
      <FieldNotes fieldKey={key} maxLength={typeof props.schema.maxLength === 'number' ? props.schema.maxLength : undefined} />
    </div>
  );
}

/** The form registry the pages render with, its field template annotated. */
export const annotatedRegistry: FormRegistry = {
  ...formRegistry,
  edit: { ...formRegistry.edit, templates: { ...formRegistry.edit.templates, FieldTemplate: AnnotatedFieldTemplate } },
};
