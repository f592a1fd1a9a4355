/** A message in its plural forms, from the schema files (CLDR categories; English needs one and other). */
export interface PluralForms {
  one: string;
  other: string;
  [category: string]: string;
}

let rules = new Intl.PluralRules('en-US');

/** The page's language's plural rules (CLDR, by Intl.PluralRules); set once, before the app runs. */
export function setPluralLanguage(language: string): void {
  rules = new Intl.PluralRules(language);
}

/** The form of a message for this count, its {count} filled in. */
export function pluralText(forms: PluralForms, count: number): string {
  const form = forms[rules.select(count)] ?? forms.other;
  return form.replace(/\{count\}/g, String(count));
}
