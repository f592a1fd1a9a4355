import { form } from '../../shared/form/form-model-data.ts';
import type { AnswerValue, Answers } from '../../shared/answers/conditions.ts';
import type { PageId } from '../../shared/form/form-model.ts';

/** The hidden field of the server's drawing that names the answers the form had controls for (render/page-slots.ts). */
export const FIELDS_PARAM = '_fields';

/**
 * A form page posted without scripts, as the answer changes the save path takes: each
 * answer of this page the form had a control for, where it differs from what is stored. A
 * box left unticked is not posted, so the form names its fields; a key of another page, an
 * upload or a list box (several values) is not taken from a post.
 */
export function postedChanges(page: PageId, posted: URLSearchParams, stored: Answers): Record<string, AnswerValue> {
  const changes: Record<string, AnswerValue> = {};
  for (const key of new Set((posted.get(FIELDS_PARAM) ?? '').split(' '))) {
    const field = form.fields[key];
    if (!field || field.page !== page || field.type === 'document') continue;
    let value: AnswerValue;
    if (field.type === 'boolean') {
      value = posted.has(key);
      if ((stored[key] ?? false) === value) continue;
    } else {
      const values = posted.getAll(key);
      if (values.length > 1) continue;
      value = values[0] ?? '';
      if ((stored[key] ?? '') === value) continue;
    }
    changes[key] = value;
  }
  return changes;
}
