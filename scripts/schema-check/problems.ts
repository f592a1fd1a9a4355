/**
 * What the schema check reports. Every problem names the file (under schemas/), the key
 * and the fix, so admissions staff editing a schema can act on it without reading code.
 */
export type ProblemKind =
  | 'bad configuration' // a key not in the data model, a key on two pages, a broken file or rule
  | 'extra keys' // a rule, condition, clear list or tab names a key no page asks
  | 'prefix not part of key' // a prefix that does not start its keys
  | 'add-another maximum' // x-repeat max above 10
  | 'missing configuration' // a page file, option list, widget or list the form needs is missing
  | 'missing translation' // a text without its version in another language, or with other placeholders
  | 'unused key'; // warning: a data-model key no page asks

export interface Problem {
  kind: ProblemKind;
  /** path under schemas/, e.g. pages/about.schema.json */
  file: string;
  /** the answer key (or property, prefix, widget name) at fault; '' when the whole file is */
  key: string;
  message: string;
  fix: string;
  /**
   * Where in the sources the problem is seen, when its key alone would not say it: the file
   * (under schemas/) and the JSON path of the node (an operator, a condition's value, the
   * English text a translation is missing for). Reports give its line and column.
   */
  at?: SourcePlace;
}

export interface SourcePlace {
  file: string;
  path: (string | number)[];
}

export function problem(kind: ProblemKind, file: string, key: string, message: string, fix: string, at?: SourcePlace): Problem {
  return { kind, file, key, message, fix, ...(at ? { at } : {}) };
}

const trimDot = (text: string) => text.replace(/\.\s*$/, '');

/** `schemas/pages/about.schema.json: "parent_3_name": not in the data model (schemas/data-model.json). Fix: add it there, or correct the key.` */
export function formatProblem(item: Problem): string {
  const key = item.key ? `"${item.key}": ` : '';
  return `schemas/${item.file}: ${key}${trimDot(item.message)}. Fix: ${trimDot(item.fix)}.`;
}

/** Drops repeats (the same file, key and message). */
export function uniqueProblems(items: Problem[]): Problem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = `${item.kind}\u0000${item.file}\u0000${item.key}\u0000${item.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
