import { form } from '../../shared/form/form-model-data.ts';
import type { PageModel } from '../../shared/form/form-model.ts';

/** The page a field belongs to (its option rules live there). */
export function useFieldPage(key: string): PageModel | undefined {
  const field = form.fields[key];
  return field ? form.pages[field.page] : undefined;
}
