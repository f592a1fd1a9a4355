import { form } from '../form/form-model-data.ts';
import type { PageId } from '../form/form-model.ts';
import type { FieldErrors } from './field-errors.ts';

/**
 * The messages as the chosen tabs show them. A rule may ask for a question of a tab that is
 * not chosen ("Class 1" while the transcript tab is): where the chosen tab says what it
 * misses ("missing" in its ui:tabs entry), that message stands on the chosen tab's first
 * question instead, so the applicant reads what is missing where they are and its link leads
 * to the chosen tab's own input, not to the other tab.
 */
export function errorsOnChosenTabs(errors: Partial<Record<PageId, FieldErrors>>, chosenTabs: Record<string, string>): Partial<Record<PageId, FieldErrors>> {
  const result = { ...errors };
  for (const page of form.pageOrder) {
    const pageErrors = result[page];
    if (!pageErrors) continue;
    for (const group of form.pages[page].tabs) {
      const chosen = group.tabs.find((tab) => tab.id === (chosenTabs[group.tab_id] ?? group.default_tab));
      if (!chosen?.missing || !chosen.keys[0]) continue;
      const elsewhere = new Set(group.tabs.filter((tab) => tab !== chosen).flatMap((tab) => tab.keys));
      const moved = Object.keys(pageErrors).filter((key) => elsewhere.has(key));
      if (!moved.length) continue;
      const next: FieldErrors = {};
      for (const [key, messages] of Object.entries(pageErrors)) if (!elsewhere.has(key)) next[key] = messages;
      next[chosen.keys[0]] = [...(next[chosen.keys[0]] ?? []), chosen.missing];
      result[page] = next;
    }
  }
  return result;
}
