/**
 * The normalised form names are searched by. Look-up lists spell names in upper case and
 * abbreviate freely ("LINCOLN HS", "ST MARYS ACAD"); applicants type "Lincoln High" or
 * "Saint Mary's". Both sides go through the same functions, so they meet in the middle:
 * lower case, no accents or punctuation, and abbreviations spelled out.
 */

/** Abbreviations that mean one thing in a school's name: replaced by the words. */
const EXPANSIONS: Record<string, string> = {
  hs: 'high school', jhs: 'junior high school', shs: 'senior high school',
  sch: 'school', schl: 'school', acad: 'academy', acdmy: 'academy', acdy: 'academy',
  ctr: 'center', cntr: 'center', sr: 'senior', jr: 'junior', chrstn: 'christian', christn: 'christian',
  prep: 'preparatory', elem: 'elementary', univ: 'university', coll: 'college', colg: 'college',
  cmty: 'community', cc: 'community college', inst: 'institute', intl: 'international', natl: 'national',
  educ: 'education', hlth: 'health', sci: 'science', mtn: 'mountain', ft: 'fort', cath: 'catholic',
};

/** Abbreviations that may mean several things ("ST": saint, state or street): kept, and the meanings searchable too. */
const ALTERNATIVES: Record<string, string[]> = {
  st: ['saint', 'state', 'street'],
  mt: ['mount', 'mountain'],
  u: ['university'],
  co: ['county', 'company'],
};

/**
 * Words many names share or leave out: a typed "High School" or "Senior" must not hide
 * "LINCOLN HS" or "LINCOLN HIGH". They rank a name higher when present, but are not required.
 */
const FILLER_WORDS = new Set(['high', 'school', 'schools', 'senior', 'secondary', 'the', 'of', 'and', 'at', 'for']);

/** Lower-case ASCII words: accents dropped, "&" read as "and", apostrophes closed up, other punctuation a space. */
export function splitWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
}

/** A word as stored: unambiguous abbreviations spelled out (one or more words). */
export function expandWord(word: string): string {
  return EXPANSIONS[word] ?? word;
}

/** The meanings of an ambiguous abbreviation, or none. */
export function alternativesOf(word: string): string[] {
  return ALTERNATIVES[word] ?? [];
}

export function isFillerWord(word: string): boolean {
  return FILLER_WORDS.has(word);
}

/** True when a word still being typed could become a filler word ("h", "sch"). */
export function couldBeFillerWord(prefix: string): boolean {
  for (const filler of FILLER_WORDS) if (filler.startsWith(prefix)) return true;
  return false;
}

/** The canonical text a name is sorted and prefix-matched by: "ST MARY'S HS" -> "st marys high school". */
export function normaliseName(name: string): string {
  return splitWords(name).map(expandWord).join(' ');
}

/** Every word a name can be found by: the canonical words plus the meanings of ambiguous abbreviations. */
export function searchWords(name: string): string[] {
  const canonical = normaliseName(name).split(' ');
  return [...canonical, ...canonical.flatMap(alternativesOf)];
}

/**
 * The full-text vector of an entry (PostgreSQL tsvector text): the name's words with
 * weight A, the city's with weight B, so "omaha central" finds Central High School in
 * Omaha, after the schools whose name has both words. Words are [a-z0-9] only: no quoting needed.
 */
export function searchVector(name: string, city?: string): string {
  const lexemes = [
    ...searchWords(name).map((word) => ({ word, weight: 'A' })),
    ...(city ? splitWords(city).map((word) => ({ word, weight: 'B' })) : []),
  ];
  return lexemes.map(({ word, weight }, index) => `'${word}':${index + 1}${weight}`).join(' ');
}
