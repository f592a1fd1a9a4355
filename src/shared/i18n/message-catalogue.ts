/**
 * Translates a finished message (placeholders already filled) by its English template:
 * "We sent a 6-digit confirmation code to ada@example.org. ..." is found as the template
 * "We sent a 6-digit confirmation code to {username}. ..." and comes back in the other
 * language with the same values. For the messages compiled into validators and written
 * by the server in English; a message the catalogue does not know stays as it is.
 */
export type MessagePairs = [string, string][];

interface Template {
  pattern: RegExp;
  names: string[];
  translation: string;
}

export interface MessageCatalogue {
  translate(message: string): string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function messageCatalogue(pairs: MessagePairs): MessageCatalogue {
  const exact = new Map<string, string>();
  const templates: Template[] = [];
  for (const [english, translation] of pairs) {
    if (!exact.has(english)) exact.set(english, translation);
    const names = [...english.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    if (!names.length) continue;
    const source = english.split(/\{\w+\}/).map(escape).join('([\\s\\S]*?)');
    templates.push({ pattern: new RegExp(`^${source}$`), names, translation });
  }
  return {
    translate(message) {
      const known = exact.get(message);
      if (known !== undefined) return known;
      for (const { pattern, names, translation } of templates) {
        const match = pattern.exec(message);
        if (!match) continue;
        const values = Object.fromEntries(names.map((name, index) => [name, match[index + 1]!]));
        return translation.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
      }
      return message;
    },
  };
}
