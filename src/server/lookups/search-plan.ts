import { alternativesOf, couldBeFillerWord, expandWord, isFillerWord, splitWords } from './normalise.ts';

/**
 * How one typed text is searched, in the order results are ranked:
 * 1. codes starting with the typed digits (a CEEB code or a ZIP),
 * 2. names starting with the typed text (the exact name sorts first),
 * 3. entries with a word starting with each typed word, in any order: all in the name
 *    first, then some in the city ("omaha central"). Typed filler words ("high", "school",
 *    "senior") are optional there and rank a name higher when present.
 * The queries are PostgreSQL tsquery text built from normalised words only ([a-z0-9]),
 * so nothing the applicant types reaches the query syntax.
 */
export interface SearchPlan {
  idPrefix: string | undefined;
  namePrefixes: string[];
  /** false for a single word of one or two letters: "a word starts with" would match most of the list */
  searchWords: boolean;
  /** the typed words but the optional ones, in the name or the city */
  requiredQuery: string;
  /** the same words, all in the name: these rank first */
  requiredInNameQuery: string;
  /** one per optional (filler) word, in the name */
  optionalQueries: string[];
}

/** Longest text looked at: no school name comes close. */
const MAX_TEXT_LENGTH = 100;

/** Name words have weight A, city words B (normalise.ts searchVector). */
type Weight = '' | 'A';

interface Term {
  word: string;
  partial: boolean;
  filler: boolean;
}

export function planSearch(typed: string): SearchPlan | undefined {
  const text = typed.slice(0, MAX_TEXT_LENGTH);
  const words = splitWords(text);
  if (words.length === 0) return undefined;
  // the last word is still being typed unless a space or punctuation follows it
  const lastIsPartial = /[a-z0-9]$/i.test(text.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''));

  const terms: Term[] = words.map((word, index) => {
    const partial = lastIsPartial && index === words.length - 1;
    const filler = expandWord(word).split(' ').every(isFillerWord) || (partial && couldBeFillerWord(word));
    return { word, partial, filler };
  });
  const allFillers = terms.every((term) => term.filler);
  const required = terms.filter((term) => allFillers || !term.filler);
  const optional = allFillers ? [] : terms.filter((term) => term.filler);

  const canonical = words.map(expandWord);
  const namePrefixes = [canonical.join(' ')];
  if (lastIsPartial && canonical.at(-1) !== words.at(-1)) {
    namePrefixes.unshift([...canonical.slice(0, -1), words.at(-1)].join(' '));
  }

  const digits = text.trim();
  return {
    idPrefix: /^\d+$/.test(digits) ? digits : undefined,
    namePrefixes,
    searchWords: words.length > 1 || words[0]!.length > 2,
    requiredQuery: required.map((term) => termQuery(term, '')).join(' & '),
    requiredInNameQuery: required.map((term) => termQuery(term, 'A')).join(' & '),
    optionalQueries: optional.map((term) => termQuery(term, 'A')),
  };
}

/**
 * One typed word as tsquery: a prefix, or for an abbreviation its meanings too
 * ("hs" -> high school); a word still being typed also matches as a prefix as it stands.
 */
function termQuery({ word, partial }: Term, weight: Weight): string {
  const expanded = expandWord(word);
  const meanings = [
    ...(expanded === word ? [] : [allOf(expanded, weight)]),
    ...alternativesOf(word).map((meaning) => prefix(meaning, weight)),
  ];
  if (partial || meanings.length === 0) return anyOf([prefix(word, weight), ...meanings]);
  return anyOf([`${word}${weight ? `:${weight}` : ''}`, ...meanings]);
}

function prefix(word: string, weight: Weight): string {
  return `${word}:*${weight}`;
}

/** Every word of an expansion, each as a prefix: "high school" -> (high:* & school:*). */
function allOf(words: string, weight: Weight): string {
  const parts = words.split(' ').map((word) => prefix(word, weight));
  return parts.length === 1 ? parts[0]! : `(${parts.join(' & ')})`;
}

function anyOf(queries: string[]): string {
  return queries.length === 1 ? queries[0]! : `(${queries.join(' | ')})`;
}
