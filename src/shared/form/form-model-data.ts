import formModel from '../generated/form-model.json';
import type { FieldMeta, FormModel } from './form-model.ts';

/**
 * The generated form model (scripts/generate.ts), typed. The file leaves out each field's
 * `key` and `page`, which its place says (a smaller first visit): they are put back here, once.
 */
export const form = formModel as unknown as FormModel;
for (const page of form.pageOrder) {
  for (const key of form.pages[page].keys) {
    const field: FieldMeta | undefined = form.fields[key];
    if (field) Object.assign(field, { key, page });
  }
}
