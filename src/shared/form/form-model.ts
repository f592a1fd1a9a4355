/**
 * The form as the generator (scripts/generate/form-model.ts) derives it from schemas/:
 * pages made of sections, sections made of blocks, each plain block one small RJSF form.
 * Answer keys are flat and final here: prefixes and instance numbers are applied.
 */
import type { Condition } from '../answers/conditions.ts';
import type { PageId } from '../generated/page-ids.ts';

/** The frame's steps (schemas/text/frame.json), generated, so a new page needs no TypeScript. */
export type { PageId };

export interface OptionItem {
  value: string;
  label: string;
  /** extra attributes an option carries, e.g. the country of a state */
  attributes?: Record<string, string | boolean>;
}

export interface YearList {
  count: number;
  direction: 'past' | 'future';
  /** start year = current year + start_offset */
  start_offset: number;
}

export type DataType = 'string' | 'code' | 'boolean' | 'date' | 'phone' | 'document';

export interface FieldMeta {
  key: string;
  page: PageId;
  title: string;
  type: DataType;
  /** name of the option list (form-model options), for coded answers */
  options?: string;
  years?: YearList;
  /** option values left out of the list at this field */
  exclude?: string[];
  widget: string;
  /** always required (an asterisk) */
  required?: boolean;
  /** required while one of these holds */
  requiredWhen?: Condition[];
}

/** A JSON object as RJSF sees it: a schema or uiSchema fragment. */
export type JsonObject = Record<string, unknown>;

export interface PartBlock {
  type: 'part';
  id: string;
  title?: string;
  schema: JsonObject;
  uiSchema: JsonObject;
  keys: string[];
}

export interface RepeaterBlock {
  type: 'repeater';
  id: string;
  button_id: string;
  max: number;
  add_label: string;
  instances: PartBlock[];
}

export interface TabsBlock {
  type: 'tabs';
  tab_id: string;
  /** removes: what leaving the tab removes, by count ('Switching removes {count} classes you entered.') */
  tabs: { id: string; title: string; blocks: Block[]; keys: string[]; removes?: { one: string; other: string }; missing?: string }[];
  default_tab: string;
}

export type Block = PartBlock | RepeaterBlock | TabsBlock;

export interface SectionModel {
  id: string;
  title: string;
  description?: string;
  blocks: Block[];
  keys: string[];
}

/** Hide `keys` while `when` holds; `clear` lists what is erased when it starts to hold. */
export interface VisibilityRule {
  when: Condition;
  keys: string[];
  clear: string[];
}

/** Options of `key` that depend on another answer (spec "Conditional select"). */
export interface OptionRule {
  key: string;
  controller: string;
  /** change: clear when the controlling answer changes; group: only when a different group applies; invalid: when the value leaves the list */
  clear: 'change' | 'group' | 'invalid';
  groups?: { when: Condition; only?: string[]; except?: string[] }[];
  /** said when a change of the controller clears this answer (the I-20 answer and the intended major) */
  notice?: string;
  /** filter by an option attribute equal to the controller's answer (states by country) */
  filter?: { attribute: string; when_blank: string[] };
}

export interface PageModel {
  id: PageId;
  path: string;
  version: number;
  title: string;
  sections: SectionModel[];
  keys: string[];
  visibility: VisibilityRule[];
  optionRules: OptionRule[];
  repeaters: { button_id: string; max: number; instances: string[][] }[];
  /** missing: said on the tab's first question in place of the messages of the other tabs' questions, while it is chosen */
  tabs: { tab_id: string; default_tab: string; tabs: { id: string; keys: string[]; missing?: string }[] }[];
}

export interface FormModel {
  pages: Record<PageId, PageModel>;
  pageOrder: PageId[];
  fields: Record<string, FieldMeta>;
  options: Record<string, OptionItem[]>;
}
