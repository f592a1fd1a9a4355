import type { ErrorSchema } from '@rjsf/utils';
import type { AnswerValue, Answers } from '../../shared/answers/conditions.ts';
import type { JsonObject } from '../../shared/form/form-model.ts';

/**
 * A part's RJSF form data is nested like its schema (blocks inside a section); the
 * answers are flat. Leaf property names are the answer keys, so the two map 1:1.
 */
type Properties = Record<string, JsonObject>;

function propertiesOf(schema: JsonObject): Properties {
  return (schema.properties ?? {}) as Properties;
}

export function isGroup(schema: JsonObject): boolean {
  return schema.type === 'object';
}

export function nestedData(schema: JsonObject, answers: Answers): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(propertiesOf(schema))) {
    if (isGroup(child)) data[name] = nestedData(child, answers);
    else if (answers[name] !== undefined && answers[name] !== '') data[name] = answers[name];
  }
  return data;
}

export function flatData(schema: JsonObject, data: Record<string, unknown> | undefined, into: Record<string, AnswerValue> = {}): Record<string, AnswerValue> {
  for (const [name, child] of Object.entries(propertiesOf(schema))) {
    const value = data?.[name];
    if (isGroup(child)) flatData(child, value as Record<string, unknown> | undefined, into);
    else into[name] = value === undefined || value === null ? '' : (value as AnswerValue);
  }
  return into;
}

export function nestedErrors(schema: JsonObject, errors: Readonly<Record<string, string[]>>): ErrorSchema {
  const result: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(propertiesOf(schema))) {
    if (isGroup(child)) {
      const inner = nestedErrors(child, errors);
      if (Object.keys(inner).length) result[name] = inner;
    } else if (errors[name]?.length) {
      result[name] = { __errors: errors[name] };
    }
  }
  return result as ErrorSchema;
}

/** The answer keys under a schema node, in order. */
export function keysOf(schema: JsonObject): string[] {
  return Object.entries(propertiesOf(schema)).flatMap(([name, child]) => (isGroup(child) ? keysOf(child) : [name]));
}
