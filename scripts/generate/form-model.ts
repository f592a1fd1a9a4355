/**
 * Builds the form model (what the browser renders) and the flat validation schema of
 * each page (what ajv checks on both sides) from schemas/pages, definitions and options.
 */
import type partnerFile from '../../schemas/partner.json';
import type frameFile from '../../schemas/text/frame.json';
import type validationFile from '../../schemas/text/validation.json';
import type { Condition } from '../../src/shared/answers/conditions.ts';
import { descKey } from '../../src/shared/answers/key-naming.ts';
import type {
  Block, DataType, FieldMeta, FormModel, OptionItem, OptionRule, PageId, PageModel, PartBlock, SectionModel, VisibilityRule,
} from '../../src/shared/form/form-model.ts';
import { readJson } from '../schema-files.ts';
import {
  SchemaError, fillText, finalKey, isDefinitionRef, isOptionsRef, loadRef, makeScope, mergeDefinition, resolveKey, type Json, type Scope,
} from './expand.ts';
import { expandedDataModel } from './data-model.ts';

/** spec section 9: a plain text input takes 45 characters, a text area 1500, unless the schema says otherwise */
const DEFAULT_MAX_LENGTH: Record<string, number> = { textarea: 1500 };
const TEXT_MAX_LENGTH = 45;

export interface GeneratedForm {
  model: FormModel;
  /** flat page schemas for ajv, without messages */
  validation: Record<PageId, Json>;
  /** the messages, by the schema path of the rule that fails */
  messages: Record<PageId, PageMessages>;
}

/** Messages of a page's rules, found by an ajv error's schemaPath (see src/shared/validation/page-errors.ts). */
export interface PageMessages {
  /** "#" or "#/allOf/3/then" -> key -> message of that `required` */
  required: Record<string, Record<string, string>>;
  /** "#/properties/zip" or "#/allOf/0/then/properties/zip" -> one message, or one per keyword */
  properties: Record<string, string | Record<string, string>>;
}

/** Takes every errorMessage out of a flat page schema into a map by schema path. */
function extractMessages(schema: Json): PageMessages {
  const messages: PageMessages = { required: {}, properties: {} };
  const visitObject = (node: Json, path: string) => {
    const errorMessage = node.errorMessage as Json | undefined;
    delete node.errorMessage;
    if (errorMessage?.required && Object.keys(errorMessage.required).length) messages.required[path] = errorMessage.required;
    for (const [key, message] of Object.entries((errorMessage?.properties ?? {}) as Json)) messages.properties[`${path}/properties/${key}`] = message;
    for (const [key, property] of Object.entries((node.properties ?? {}) as Json)) {
      if (property.errorMessage !== undefined) {
        messages.properties[`${path}/properties/${key}`] = property.errorMessage;
        delete property.errorMessage;
      }
    }
    ((node.allOf ?? []) as Json[]).forEach((rule, index) => visitObject(rule.then, `${path}/allOf/${index}/then`));
  };
  visitObject(schema, '#');
  return messages;
}

interface PageContext {
  page: PageId;
  file: string;
  fields: Record<string, FieldMeta>;
  options: Record<string, OptionItem[]>;
  flat: Json;
  visibility: VisibilityRule[];
  optionRules: OptionRule[];
  repeaters: PageModel['repeaters'];
  tabs: PageModel['tabs'];
  dataTypes: Map<string, DataType>;
  /** a key's own message, authored for a wrong answer ("Please enter your GPA as a number, e.g. 3.75.") */
  specific: Map<string, string>;
  /** required messages no schema wrote (the label, for now): the list they are in, and the key */
  unwritten: [Record<string, string>, string][];
}

// Read when the form is built, not at import, so one process can build the form of
// another schemas directory (the impact report builds a revision's form beside today's).
function partnerTexts(): Record<string, string> {
  const partner = readJson<typeof partnerFile>('partner.json');
  return {
    partner: partner.name,
    short_name: partner.short_name,
    sat_code: partner.test_codes.sat_code,
    act_code: partner.test_codes.act_code,
    clt_code: partner.test_codes.clt_code,
    school_code: partner.test_codes.school_code,
  };
}

function ordered(properties: Json, order: unknown): [string, Json][] {
  const entries = Object.entries(properties ?? {}) as [string, Json][];
  if (!Array.isArray(order)) return entries;
  const rank = (name: string) => {
    const index = order.indexOf(name);
    return index === -1 ? order.length : index;
  };
  return [...entries].sort((a, b) => rank(a[0]) - rank(b[0]));
}

function deepMerge(base: Json, over: Json): Json {
  const result: Json = { ...base };
  for (const [key, value] of Object.entries(over ?? {})) {
    result[key] = value && typeof value === 'object' && !Array.isArray(value) && result[key] && typeof result[key] === 'object'
      ? deepMerge(result[key], value)
      : value;
  }
  return result;
}

function resolveCondition(condition: Json, scope: Scope): Condition {
  if (Array.isArray(condition.all)) return { all: condition.all.map((part: Json) => resolveCondition(part, scope)) };
  if (Array.isArray(condition.any)) return { any: condition.any.map((part: Json) => resolveCondition(part, scope)) };
  if (typeof condition.key !== 'string' || typeof condition.op !== 'string') {
    throw new SchemaError(scope.file, '', `a condition needs "key" and "op": ${JSON.stringify(condition)}`, 'write { "key": "<answer key>", "op": "equals", "value": "Y" }');
  }
  return { ...(condition as object), key: resolveKey(scope, condition.key) } as Condition;
}

function addProduced(scope: Scope, key: string): void {
  for (let current: Scope | undefined = scope; current; current = current.parent) current.produced.add(key);
}

function optionItems(file: string, ref: string, context: PageContext): string {
  const { file: optionsFile, json } = loadRef(file, ref);
  const name = optionsFile.replace(/^options\//, '').replace(/\.json$/, '');
  if (!context.options[name]) {
    context.options[name] = (json.oneOf as Json[]).map(({ const: value, title, ...attributes }) => ({
      value: String(value), label: String(title), ...(Object.keys(attributes).length ? { attributes } : {}),
    }));
  }
  return name;
}

function defaultMessages(rules: Json, label: string): Json {
  const messages: Json = {};
  for (const [keyword, template] of Object.entries(readJson<typeof validationFile>('text/validation.json').defaults)) {
    if (keyword in rules) messages[keyword] = template.replace('{label}', label).replace('{limit}', String(rules[keyword]));
  }
  return messages;
}

/** One answer: its RJSF schema and ui, its validation rules, its metadata. */
function expandLeaf(name: string, raw: Json, ui: Json, scope: Scope, context: PageContext): { schema: Json; ui: Json; key: string } {
  const key = finalKey(scope, name);
  if (context.fields[key]) throw new SchemaError(scope.file, key, 'the key is asked twice on the page', 'remove one of the two questions, or give one a prefix');
  addProduced(scope, key);
  const title = fillText(String(raw.title ?? name), scope);
  let optionList: string | undefined;
  if (isOptionsRef(raw.$ref)) optionList = optionItems(scope.file, raw.$ref, context);
  const exclude = (raw['x-exclude'] ?? []) as string[];
  const years = raw['x-years'];
  const isDocument = raw['x-document'] === true;
  const isDate = raw.format === 'date';
  const type = raw.type === 'boolean' ? 'boolean' : 'string';

  // validation rules
  const rules: Json = { type };
  for (const keyword of ['pattern', 'minLength', 'maxLength', 'const', 'x-date-min', 'x-date-max']) {
    if (raw[keyword] !== undefined) rules[keyword] = raw[keyword];
  }
  if (optionList) rules.enum = context.options[optionList]!.map((item) => item.value).filter((value) => !exclude.includes(value));
  if (years) rules['x-year-range'] = years;
  if (isDate) rules['x-date'] = true;
  if (isDocument) rules.enum = ['ANSWERED'];
  const widget = (ui['ui:widget'] as string | undefined) ??
    (isDocument ? 'file' : optionList || years ? 'select' : type === 'boolean' ? 'checkbox' : isDate ? 'date' : 'text');
  if (type === 'string' && !optionList && !years && !isDate && !isDocument && rules.maxLength === undefined) rules.maxLength = DEFAULT_MAX_LENGTH[widget] ?? TEXT_MAX_LENGTH;
  let errorMessage: Json | string;
  if (typeof raw.errorMessage === 'string') {
    errorMessage = fillText(raw.errorMessage, scope);
    context.specific.set(key, errorMessage);
  } else {
    const authored: Json = {};
    for (const [keyword, message] of Object.entries((raw.errorMessage ?? {}) as Json)) {
      authored[keyword === 'format' ? 'x-date' : keyword] = fillText(String(message), scope);
    }
    const own = authored['x-date'] ?? authored.pattern;
    if (typeof own === 'string') context.specific.set(key, own);
    errorMessage = { ...defaultMessages(rules, title), ...authored };
  }
  context.flat.properties[key] = { ...rules, errorMessage };

  context.fields[key] = {
    key, page: context.page, title, type: context.dataTypes.get(key) ?? (optionList ? 'code' : type === 'boolean' ? 'boolean' : 'string'), widget,
    ...(optionList ? { options: optionList } : {}),
    ...(exclude.length ? { exclude } : {}),
    ...(years ? { years } : {}),
  };

  // rendering
  const schema: Json = { type, title };
  if (optionList) schema['x-options'] = optionList;
  if (exclude.length) schema['x-exclude'] = exclude;
  if (years) schema['x-years'] = years;
  if (isDate) schema.format = 'date';
  if (isDocument) schema['x-document'] = true;
  if (typeof rules.maxLength === 'number') schema.maxLength = rules.maxLength;
  if (raw.description) schema.description = fillText(String(raw.description), scope);
  const leafUi: Json = {};
  for (const [uiKey, value] of Object.entries(ui)) {
    if (['ui:hideWhen', 'ui:clearOnHide', 'ui:optionsWhen', 'ui:optionsFilter'].includes(uiKey)) continue;
    leafUi[uiKey] = typeof value === 'string' ? fillText(value, scope) : value;
  }
  // `ui:options.keys` names other answers a widget works with (a ZIP's city and state): their final keys
  const siblings = (ui['ui:options'] as Json | undefined)?.keys as Record<string, string> | undefined;
  if (siblings) {
    const keys = Object.fromEntries(Object.entries(siblings).map(([role, name]) => [role, resolveKey(scope, name)]));
    leafUi['ui:options'] = { ...(leafUi['ui:options'] as Json), keys };
  }
  leafUi['ui:widget'] = widget;
  collectLeafRules(key, ui, scope, context);
  return { schema, ui: leafUi, key };
}

function collectLeafRules(key: string, ui: Json, scope: Scope, context: PageContext): void {
  const optionsWhen = ui['ui:optionsWhen'] as Json | undefined;
  if (optionsWhen) {
    context.optionRules.push({
      key,
      controller: resolveKey(scope, optionsWhen.key),
      clear: optionsWhen.clear ?? 'change',
      // what the applicant is told when a change of the controlling answer clears this one
      ...(typeof optionsWhen.notice === 'string' ? { notice: fillText(optionsWhen.notice, scope) } : {}),
      ...(optionsWhen.groups ? {
        groups: (optionsWhen.groups as Json[]).map((group) => ({ ...group, when: resolveCondition(group.when, scope) })) as OptionRule['groups'],
      } : {}),
    });
  }
  const filter = ui['ui:optionsFilter'] as Json | undefined;
  if (filter) {
    // the filtering answer belongs to the same block (a school without a country shows US and Canadian states)
    const controller = scope.declared.has(filter.by) ? finalKey(scope, filter.by) : '';
    context.optionRules.push({
      key, controller, clear: 'invalid',
      filter: { attribute: filter.attribute, when_blank: filter.when_blank ?? [] },
    });
  }
}

/** Hides and clears: `ui:hideWhen` on any node, `ui:hideAllBut` on a block. */
function collectVisibility(ui: Json, keys: string[], scope: Scope, context: PageContext): void {
  const withDesc = (list: string[]) => list.flatMap((key) => (context.fields[key]?.options || context.fields[key]?.years ? [key, descKey(key)] : [key]));
  if (ui['ui:hideWhen']) {
    const clear = Array.isArray(ui['ui:clearOnHide']) ? (ui['ui:clearOnHide'] as string[]).map((key) => resolveKey(scope, key)) : withDesc(keys);
    context.visibility.push({ when: resolveCondition(ui['ui:hideWhen'], scope), keys, clear });
  }
  if (ui['ui:hideAllBut']) {
    const keep = new Set((ui['ui:hideAllBut'].keep as string[]).map((key) => resolveKey(scope, key)));
    const hidden = keys.filter((key) => !keep.has(key));
    context.visibility.push({ when: resolveCondition(ui['ui:hideAllBut'].when, scope), keys: hidden, clear: withDesc(hidden) });
  }
}

function labelOf(key: string, context: PageContext): string {
  return context.fields[key]?.title ?? key;
}

/** A required answer without a written message: the label for now, noted to be replaced once every rule is read (its own message, else what to do by its kind). */
function unwritten(list: Record<string, string>, key: string, context: PageContext): string {
  context.unwritten.push([list, key]);
  return labelOf(key, context);
}

/**
 * A missing answer says what the answer should be when the schema says it for a wrong one
 * ("Please enter your GPA as a number, e.g. 3.75."), rather than the label alone, which a
 * screen reader has just read out ("Error: GPA"); the label stays where nothing more is written.
 */
function useSpecificRequiredMessages(context: PageContext): void {
  for (const [list, key] of context.unwritten) list[key] = context.specific.get(key) ?? missingMessage(key, context) ?? list[key]!;
}

const CHOICE_WIDGETS = new Set(['select', 'radio', 'monthYear']);

/** What to do about a missing answer, by the kind of question ("Legal Last Name: please fill this in."), from text/validation.json. */
function missingMessage(key: string, context: PageContext): string | undefined {
  const field = context.fields[key];
  if (!field) return undefined;
  const missing = readJson<typeof validationFile>('text/validation.json').missing;
  const widget = field.widget ?? 'text';
  const choice = CHOICE_WIDGETS.has(widget) || Boolean(field.options || field.years);
  // a question ("Were you home-schooled?") is followed by a sentence, a label by a colon
  const template = /[?¿]\s*$/.test(field.title) ? (choice ? missing.after_question.choice : missing.after_question.text)
    : choice ? missing.choice : widget === 'checkbox' ? missing.checkbox : widget === 'date' ? missing.date : widget === 'file' ? missing.file : missing.text;
  return template.replace('{label}', field.title);
}

/** required, errorMessage.required and allOf if/then of one schema object, into the page's flat schema. */
function collectRules(schema: Json, scope: Scope, context: PageContext): void {
  const requiredMessages = (schema.errorMessage?.required ?? {}) as Json;
  for (const name of (schema.required ?? []) as string[]) {
    const key = resolveKey(scope, name);
    if (!context.flat.required.includes(key)) context.flat.required.push(key);
    context.flat.errorMessage.required[key] = requiredMessages[name] ? fillText(requiredMessages[name], scope) : unwritten(context.flat.errorMessage.required, key, context);
    context.fields[key] && (context.fields[key].required = true);
  }
  for (const rule of (schema.allOf ?? []) as Json[]) {
    if (!rule.if?.when || !rule.then) {
      throw new SchemaError(scope.file, '', 'each allOf entry needs "if": { "when": ... } and "then"', 'see schemas/README.md, the guide for admissions staff');
    }
    const when = resolveCondition(rule.if.when, scope);
    const then: Json = {};
    const messages = (rule.then.errorMessage ?? {}) as Json;
    if (rule.then.required) {
      then.required = (rule.then.required as string[]).map((name) => resolveKey(scope, name));
      then.errorMessage = { required: {} };
      (rule.then.required as string[]).forEach((name, index) => {
        const key = then.required[index];
        const message = messages.required?.[name] ?? requiredMessages[name];
        then.errorMessage.required[key] = message ? fillText(message, scope) : unwritten(then.errorMessage.required, key, context);
        const field = context.fields[key];
        if (field) field.requiredWhen = [...(field.requiredWhen ?? []), when];
      });
    }
    if (rule.then.properties) {
      then.properties = Object.fromEntries(Object.entries(rule.then.properties as Json).map(([name, rules]) => [resolveKey(scope, name), rules]));
      if (messages.properties) {
        const fill = (message: unknown): unknown => (typeof message === 'string'
          ? fillText(message, scope)
          : Object.fromEntries(Object.entries(message as Json).map(([keyword, text]) => [keyword, fillText(String(text), scope)])));
        then.errorMessage = { ...(then.errorMessage ?? {}), properties: Object.fromEntries(Object.entries(messages.properties as Json).map(([name, message]) => [resolveKey(scope, name), fill(message)])) };
        // a rule's message for a wrong answer (a US ZIP's format) is the key's own, unless it has one already
        for (const [key, message] of Object.entries(then.errorMessage.properties as Json)) {
          const own = typeof message === 'string' ? message : (message as Json).pattern ?? (message as Json).format;
          if (typeof own === 'string' && !context.specific.has(key)) context.specific.set(key, own);
        }
      }
    }
    context.flat.allOf.push({ if: { when }, then });
  }
}

interface Expanded {
  schema: Json;
  ui: Json;
  keys: string[];
}

/** A group of answers (a block, a definition, a composite field) or a single answer. */
function expandNode(name: string, raw: Json, siteUi: Json, scope: Scope, context: PageContext, instance?: number): Expanded {
  if (isDefinitionRef(raw.$ref)) {
    const { schema, ui: defUi } = mergeDefinition(scope.file, raw);
    const inner = makeScope({ file: scope.file, parent: scope, schema, instance });
    return expandObject(name, schema, deepMerge(defUi, siteUi), inner, context);
  }
  if (raw.type === 'object' || raw.properties) return expandObject(name, raw, siteUi, scope, context);
  const leaf = expandLeaf(name, raw, siteUi, scope, context);
  collectVisibility(siteUi, [leaf.key], scope, context);
  return { schema: leaf.schema, ui: leaf.ui, keys: [leaf.key] };
}

/** A uiSchema entry must name a question or block at its own level (or be a ui: setting). */
function checkUiNames(ui: Json, schema: Json, scope: Scope, where: string): void {
  const names = new Set(Object.keys(schema.properties ?? {}));
  for (const key of Object.keys(ui)) {
    if (key.startsWith('ui:') || names.has(key)) continue;
    throw new SchemaError(scope.file.replace('.schema.json', '.ui.json'), key, `the uiSchema of "${where}" names "${key}", which is not one of its questions (${[...names].join(', ')})`,
      'move the entry inside the block that holds that question, or correct its name');
  }
}

function expandObject(name: string, schema: Json, ui: Json, scope: Scope, context: PageContext): Expanded {
  checkUiNames(ui, schema, scope, name);
  const properties: Json = {};
  const childUi: Json = {};
  const keys: string[] = [];
  for (const [childName, child] of ordered(schema.properties, ui['ui:order'])) {
    if (child['x-repeat']) throw new SchemaError(scope.file, childName, 'x-repeat is only allowed directly in a page section', 'move the repeated block up to the section');
    const expanded = expandNode(childName, child, (ui[childName] ?? {}) as Json, scope, context);
    const id = child.type === 'object' || child.properties || isDefinitionRef(child.$ref) ? childName : expanded.keys[0]!;
    properties[id] = expanded.schema;
    childUi[id] = expanded.ui;
    keys.push(...expanded.keys);
  }
  collectRules(schema, scope, context);
  collectVisibility(ui, keys, scope, context);
  const rjsf: Json = { type: 'object', properties };
  if (schema.title) rjsf.title = fillText(String(schema.title), scope);
  if (schema.description) rjsf.description = fillText(String(schema.description), scope);
  const rjsfUi: Json = { ...childUi };
  for (const [uiKey, value] of Object.entries(ui)) {
    if (uiKey.startsWith('ui:') && !['ui:hideWhen', 'ui:hideAllBut', 'ui:clearOnHide', 'ui:order', 'ui:tabs', 'ui:addAnother', 'ui:title'].includes(uiKey)) {
      rjsfUi[uiKey] = typeof value === 'string' ? fillText(value, scope) : value;
    }
  }
  if (ui['ui:title']) rjsf.title = fillText(String(ui['ui:title']), scope);
  void name;
  return { schema: rjsf, ui: rjsfUi, keys };
}

function part(id: string, entries: Expanded[], names: string[], title?: string): PartBlock {
  const properties: Json = {};
  const uiSchema: Json = {};
  entries.forEach((entry, index) => {
    const propertyName = entry.schema.type === 'object' ? names[index]! : entry.keys[0]!;
    properties[propertyName] = entry.schema;
    uiSchema[propertyName] = entry.ui;
  });
  return { type: 'part', id, ...(title ? { title } : {}), schema: { type: 'object', properties }, uiSchema, keys: entries.flatMap((entry) => entry.keys) };
}

function expandSection(name: string, raw: Json, siteUi: Json, pageScope: Scope, context: PageContext): SectionModel {
  let schema = raw;
  let ui = siteUi;
  let scope = pageScope;
  if (isDefinitionRef(raw.$ref)) {
    const merged = mergeDefinition(pageScope.file, raw);
    schema = merged.schema;
    ui = deepMerge(merged.ui, siteUi);
    scope = makeScope({ file: pageScope.file, parent: pageScope, schema });
  }
  checkUiNames(ui, schema, scope, name);
  const children = ordered(schema.properties, ui['ui:order']);
  const tabs = ui['ui:tabs'] as Json | undefined;

  const buildBlocks = (names: string[], blockPrefix: string): Block[] => {
    const blocks: Block[] = [];
    let pending: { entries: Expanded[]; names: string[] } = { entries: [], names: [] };
    const flush = () => {
      if (pending.entries.length) blocks.push(part(`${blockPrefix}-${blocks.length + 1}`, pending.entries, pending.names));
      pending = { entries: [], names: [] };
    };
    for (const childName of names) {
      const child = schema.properties[childName] as Json;
      const childUi = (ui[childName] ?? {}) as Json;
      const repeat = child['x-repeat'] as Json | undefined;
      if (!repeat) {
        pending.entries.push(expandNode(childName, child, childUi, scope, context));
        pending.names.push(childName);
        continue;
      }
      flush();
      if (typeof repeat.max !== 'number' || repeat.max > 10 || repeat.max < 1) {
        throw new SchemaError(scope.file, childName, `add-another maximum ${repeat.max} is not between 1 and 10 (spec section 5)`, 'set "x-repeat": { "max": 10 } or less');
      }
      const instances: PartBlock[] = [];
      for (let n = 1; n <= repeat.max; n++) {
        const { ['x-repeat']: _repeat, title: groupTitle, ...single } = child;
        // 'College {n}' on every instance, or the group's title once, above the first
        const title = childUi['ui:title'] ?? (n === 1 ? groupTitle : undefined) ?? '';
        const expanded = expandNode(childName, single, { ...childUi, 'ui:title': title }, scope, context, n);
        instances.push(part(`${childName}-${n}`, [expanded], [childName], expanded.schema.title));
      }
      // visibility of the whole repeater (ui:hideWhen at the use site) is collected per instance by expandObject
      blocks.push({
        type: 'repeater', id: childName, button_id: repeat.button_id, max: repeat.max,
        add_label: fillText(String(childUi['ui:addAnother'] ?? 'Add another'), scope), instances,
      });
      context.repeaters.push({ button_id: repeat.button_id, max: repeat.max, instances: instances.map((instance) => instance.keys) });
    }
    flush();
    return blocks;
  };

  let blocks: Block[];
  const names = children.map(([childName]) => childName);
  if (tabs) {
    const inTabs = new Set((tabs.tabs as Json[]).flatMap((tab) => tab.fields as string[]));
    const missing = [...inTabs].filter((field) => !schema.properties[field]);
    if (missing.length) throw new SchemaError(context.file.replace('.schema.', '.ui.'), tabs.tab_id, `ui:tabs names unknown fields: ${missing.join(', ')}`, 'list property names of the section in each tab\'s "fields"');
    blocks = buildBlocks(names.filter((childName) => !inTabs.has(childName)), name);
    const tabModels = (tabs.tabs as Json[]).map((tab) => {
      const tabBlocks = buildBlocks(tab.fields as string[], `${name}-${tab.id}`);
      const keys = tabBlocks.flatMap((block) => blockKeys(block));
      const removes = tab.removes as { one?: unknown; other?: unknown } | undefined;
      if (removes && (typeof removes.one !== 'string' || typeof removes.other !== 'string')) {
        throw new SchemaError(context.file.replace('.schema.', '.ui.'), tabs.tab_id, `tab "${tab.id as string}": "removes" needs the texts "one" and "other"`, 'e.g. { "one": "Switching removes 1 class you entered.", "other": "Switching removes {count} classes you entered." }');
      }
      if (tab.missing !== undefined && typeof tab.missing !== 'string') {
        throw new SchemaError(context.file.replace('.schema.', '.ui.'), tabs.tab_id, `tab "${tab.id as string}": "missing" is a text`, 'e.g. "Your transcript is missing: upload it here."');
      }
      const missing = tab.missing as string | undefined;
      return { id: tab.id as string, title: tab.title as string, blocks: tabBlocks, keys, ...(removes ? { removes: removes as { one: string; other: string } } : {}), ...(missing ? { missing } : {}) };
    });
    const defaultTab = ((tabs.tabs as Json[]).find((tab) => tab.default) ?? tabs.tabs[0]).id as string;
    blocks.push({ type: 'tabs', tab_id: tabs.tab_id, tabs: tabModels, default_tab: defaultTab });
    context.tabs.push({ tab_id: tabs.tab_id, default_tab: defaultTab, tabs: tabModels.map((tab) => ({ id: tab.id, keys: tab.keys, ...(tab.missing ? { missing: tab.missing } : {}) })) });
  } else {
    blocks = buildBlocks(names, name);
  }
  collectRules(schema, scope, context);
  const keys = blocks.flatMap(blockKeys);
  collectVisibility(ui, keys, scope, context);
  return {
    id: name,
    title: fillText(String(schema.title ?? name), scope),
    ...(schema.description || ui['ui:description'] ? { description: fillText(String(schema.description ?? ui['ui:description']), scope) } : {}),
    blocks,
    keys,
  };
}

export function blockKeys(block: Block): string[] {
  if (block.type === 'part') return block.keys;
  if (block.type === 'repeater') return block.instances.flatMap((instance) => instance.keys);
  return block.tabs.flatMap((tab) => tab.keys);
}

export function pageIds(): { id: PageId; path: string }[] {
  return readJson<typeof frameFile>('text/frame.json').steps.map((step) => ({ id: step.path.slice(1) as PageId, path: step.path }));
}

export function buildForm(): GeneratedForm {
  const dataModel = expandedDataModel();
  const dataTypes = new Map(Object.entries(dataModel.keys).map(([key, spec]) => [key, spec.type]));
  const fields: Record<string, FieldMeta> = {};
  const options: Record<string, OptionItem[]> = {};
  const pages = {} as Record<PageId, PageModel>;
  const validation = {} as Record<PageId, Json>;
  const messages = {} as Record<PageId, PageMessages>;

  const texts = partnerTexts();
  for (const { id, path } of pageIds()) {
    const file = `pages/${id}.schema.json`;
    const schema = readJson<Json>(file);
    const ui = readJson<Json>(`pages/${id}.ui.json`);
    const context: PageContext = {
      page: id, file, fields, options, dataTypes,
      flat: { $id: `page/${id}`, type: 'object', properties: {}, required: [], errorMessage: { required: {} }, allOf: [] },
      visibility: [], optionRules: [], repeaters: [], tabs: [], specific: new Map(), unwritten: [],
    };
    const scope = makeScope({ file, parent: undefined, schema, texts });
    checkUiNames(ui, schema, scope, id);
    const sections = ordered(schema.properties, ui['ui:order'])
      .map(([name, raw]) => expandSection(name, raw, (ui[name] ?? {}) as Json, scope, context));
    collectRules(schema, scope, context);
    useSpecificRequiredMessages(context);
    pages[id] = {
      id, path, version: Number(schema.version ?? 1), title: String(schema.title ?? id), sections,
      keys: sections.flatMap((section) => section.keys),
      visibility: context.visibility, optionRules: context.optionRules, repeaters: context.repeaters, tabs: context.tabs,
    };
    if (!context.flat.allOf.length) delete context.flat.allOf;
    messages[id] = extractMessages(context.flat);
    validation[id] = context.flat;
  }
  return { model: { pages, pageOrder: pageIds().map((page) => page.id), fields, options }, validation, messages };
}

/**
 * The model as the browser loads it (form-model.json): a field's `key` and `page`, which
 * its place in the model says already, are left out (about 1.2 KB gzip of a first visit)
 * and put back as it loads (src/shared/form/form-model-data.ts).
 */
export function modelFile(model: FormModel): string {
  const fields = Object.fromEntries(Object.entries(model.fields).map(([key, { key: _key, page: _page, ...rest }]) => [key, rest]));
  return JSON.stringify({ ...model, fields });
}
