import fileItems from '../schemas/file-items.json';
import type { FileItemRule } from '../src/shared/file-items/checklist.ts';
import { form } from '../src/shared/form/form-model-data.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';
import { conditionWords, neverTrue, ruleTexts } from './rule-words.ts';
import text from './preview-text.json';

type ItemTexts = Pick<typeof text, 'file_items_title' | 'file_items_intro' | 'file_item_id' | 'file_item_provided_by' | 'file_item_providers' | 'required' | 'required_always' | 'required_never'>;

/** The panel's texts in the language the preview shows (English unless it has them in it). */
function itemTexts(language = document.documentElement.lang): ItemTexts {
  const translated = (text as unknown as Record<string, Partial<ItemTexts> | undefined>)[language];
  return { ...text, ...translated, file_item_providers: { ...text.file_item_providers, ...translated?.file_item_providers } };
}

/** Whether an item is required, in words: always, no, or when its rule holds (or that the rule can never hold). */
function requiredWords(item: FileItemRule): { words: string; never: boolean } {
  const texts = itemTexts();
  if (!item.required) return { words: texts.required_never, never: false };
  if (!item.required_when) return { words: texts.required_always, never: false };
  const rules = ruleTexts();
  const reason = neverTrue(form, item.required_when, rules);
  if (reason) return { words: fillTemplate(rules.never_required, { reason }), never: true };
  return { words: fillTemplate(rules.required_when, { condition: conditionWords(form, item.required_when, false, rules) }), never: false };
}

/**
 * The application file's items as staff wrote them, in the texts' language: each item's
 * title and description as applicants read them, its id, who provides it and when it is
 * required (its rule in the words of the form's questions).
 */
export function FileItemsPanel() {
  const texts = itemTexts();
  return (
    <section className="form-page preview-file-items" aria-labelledby="preview-file-items-title">
      <h2 id="preview-file-items-title">{texts.file_items_title}</h2>
      <p>{texts.file_items_intro}</p>
      <ul className="preview-file-item-list">
        {(fileItems.items as FileItemRule[]).map((item) => {
          const required = requiredWords(item);
          return (
            <li key={item.id} data-preview-file-item={item.id}>
              <h3>{item.title}</h3>
              <p>{item.description}</p>
              <dl className="preview-facts preview-notes">
                <div><dt>{texts.file_item_id}</dt><dd><code>{item.id}</code></dd></div>
                <div><dt>{texts.file_item_provided_by}</dt><dd>{item.provided_by.map((who) => texts.file_item_providers[who]).join('; ')}</dd></div>
                <div><dt>{texts.required}</dt><dd data-preview-required data-preview-rule-never={required.never || undefined}>{required.words}</dd></div>
              </dl>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
