/**
 * What the preview says beside each question, all read from the generated form model and
 * messages (so from schemas/): its key, data-model type, when it is required, maxLength,
 * every message it can show, its options with their codes, and the rules that show it.
 */
import type { Condition } from '../src/shared/answers/conditions.ts';
import type { Block, FormModel, OptionItem, PageModel } from '../src/shared/form/form-model.ts';
import { conditionWords, neverTrue, ruleTexts, unknownOperators, visibilityWords } from './rule-words.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';

export interface PageMessages {
  required: Record<string, Record<string, string>>;
  properties: Record<string, string | Record<string, string>>;
}

export interface FieldFacts {
  key: string;
  type: string;
  /** null: not required; '' always; else the rule in words (or that it can never be true) */
  required: string | null;
  maxLength?: number;
  messages: string[];
  options?: OptionItem[];
  /** the answer that narrows the options, in words */
  narrowedBy?: string;
  years?: { count: number; direction: string };
  /** what shows the question, one entry per rule that can hide it; `never`: the rule cannot work as written */
  shownWhen: { words: string; never: boolean }[];
}

/** Every message the page's validators can give this key (required ones, and per rule). */
export function messagesOf(messages: PageMessages | undefined, key: string): string[] {
  if (!messages) return [];
  const found: string[] = [];
  for (const byKey of Object.values(messages.required)) if (byKey[key]) found.push(byKey[key]);
  for (const [path, entry] of Object.entries(messages.properties)) {
    if (!path.endsWith(`/properties/${key}`)) continue;
    found.push(...(typeof entry === 'string' ? [entry] : Object.values(entry)));
  }
  return [...new Set(found)];
}

export function fieldFacts(model: FormModel, page: PageModel, messages: PageMessages | undefined, key: string, maxLength?: number): FieldFacts | undefined {
  const field = model.fields[key];
  if (!field) return undefined;
  const requiredWhen: Condition | undefined = field.requiredWhen?.length
    ? (field.requiredWhen.length === 1 ? field.requiredWhen[0] : { any: field.requiredWhen })
    : undefined;
  const exclude = new Set(field.exclude ?? []);
  const optionRule = page.optionRules.find((rule) => rule.key === key);
  return {
    key,
    type: field.type,
    required: field.required ? '' : requiredWhen ? requiredWords(model, requiredWhen) : null,
    maxLength,
    messages: messagesOf(messages, key),
    options: field.options ? (model.options[field.options] ?? []).filter((item) => !exclude.has(item.value)) : undefined,
    narrowedBy: optionRule ? model.fields[optionRule.controller]?.title ?? optionRule.controller : undefined,
    years: field.years ? { count: field.years.count, direction: field.years.direction } : undefined,
    shownWhen: page.visibility.filter((rule) => rule.keys.includes(key)).map((rule) => visibilityWords(model, rule.when)),
  };
}

/** "when Country is Canada", or that the rule can never make it required, and why. */
function requiredWords(model: FormModel, requiredWhen: Condition): string {
  const texts = ruleTexts();
  const reason = neverTrue(model, requiredWhen, texts);
  const unknown = unknownOperators(requiredWhen, texts);
  if (!reason && unknown.length) return fillTemplate(texts.broken_rule, { reason: unknown.join('; ') });
  return reason ? fillTemplate(texts.never_required, { reason }) : fillTemplate(texts.required_when, { condition: conditionWords(model, requiredWhen, false, texts) });
}

/** The keys of later add-another instances (2..n): the preview draws the first of each. */
export function laterInstanceKeys(page: PageModel): Set<string> {
  return new Set(page.repeaters.flatMap((repeater) => repeater.instances.slice(1).flat()));
}

/**
 * The page's conditional sections: one per visibility rule, named by the first of its
 * questions the preview draws (later add-another instances repeat the first one's rules).
 */
export function conditionalSections(page: PageModel): { id: string; index: number; anchor: string; keys: string[] }[] {
  const later = laterInstanceKeys(page);
  return page.visibility.flatMap((rule, index) => {
    const keys = rule.keys.filter((key) => !later.has(key));
    return keys.length ? [{ id: `${page.id}/${index}`, index, anchor: keys[0]!, keys }] : [];
  });
}

/** A block with every tab's blocks one after another, where the page shows one tab at a time. */
function withAllTabs(block: Block): Block[] {
  return block.type === 'tabs' ? block.tabs.flatMap((tab) => tab.blocks.flatMap(withAllTabs)) : [block];
}

/** The page with every tab's questions drawn, for the preview with every section open. */
export function withTabsOpen(page: PageModel): PageModel {
  return { ...page, sections: page.sections.map((section) => ({ ...section, blocks: section.blocks.flatMap(withAllTabs) })) };
}

/** Each tab of the page by the key of its first question, where the preview labels it. */
export function tabsByFirstKey(page: PageModel): Map<string, { title: string; chosenFirst: boolean }> {
  const found = new Map<string, { title: string; chosenFirst: boolean }>();
  const walk = (blocks: Block[]) => {
    for (const block of blocks) {
      if (block.type !== 'tabs') continue;
      for (const tab of block.tabs) {
        if (tab.keys[0]) found.set(tab.keys[0], { title: tab.title, chosenFirst: tab.id === block.default_tab });
        walk(tab.blocks);
      }
    }
  };
  page.sections.forEach((section) => walk(section.blocks));
  return found;
}
