/**
 * A list whose names come from CLDR (the countries) is shown in the language's own
 * alphabetical order (Intl.Collator), with the entries the English file pins first
 * (United States, spec section 3 "Select lists") first, as in English; the codes are the
 * English list's, none added or lost.
 */
import { describe, expect, it } from 'vitest';
import countries from '../../schemas/options/countries.json';
import { inLanguageOrder } from '../../scripts/i18n/cldr.ts';
import { localizedFiles } from '../../scripts/i18n/localized-tree.ts';

type Option = { const: string; title: string };
const spanish = new Intl.Collator('es');
const inOrder = (options: Option[]) => options.every((option, index) => index === 0 || spanish.compare(options[index - 1]!.title, option.title) <= 0);

describe('lists named by CLDR, in the language\'s order', () => {
  it('sorts by the language\'s collation, accents and ñ where Spanish puts them, pinned entries first', () => {
    const list = {
      'x-first': ['USA'],
      oneOf: [
        { const: 'USA', title: 'Estados Unidos' }, { const: 'OMN', title: 'Omán' }, { const: 'NOR', title: 'Noruega' },
        { const: 'AUT', title: 'Austria' }, { const: 'ALA', title: 'Åland' }, { const: 'ESP', title: 'España' }, { const: 'EGY', title: 'Egipto' },
        { const: 'NIU', title: 'Niue' }, { const: 'ZZN', title: 'Ñandú' }, { const: 'AFG', title: 'Afganistán' },
      ],
    };
    const ordered = inLanguageOrder(list, 'es').oneOf as Option[];
    expect(ordered.map((option) => option.title)).toEqual([
      'Estados Unidos', 'Afganistán', 'Åland', 'Austria', 'Egipto', 'España', 'Niue', 'Noruega', 'Ñandú', 'Omán',
    ]);
  });

  it('gives the Spanish country lists in Spanish order, the United States first where English has it, with every code', () => {
    const files = localizedFiles('es');
    const withUsa = files.get('options/countries.json')!.oneOf as Option[];
    expect(withUsa[0]).toEqual({ const: 'USA', title: 'Estados Unidos' });
    expect(inOrder(withUsa.slice(1))).toBe(true);
    expect(withUsa.map((option) => option.const).sort()).toEqual(countries.oneOf.map((option) => option.const).sort());
    // not English's order: "Alemania" (DEU) comes early in Spanish
    expect(withUsa.slice(0, 4).map((option) => option.const)).toEqual(['USA', 'AFG', 'ALB', 'DEU']);
  });

  it('leaves a list typed by hand in the order its English file gives', () => {
    const files = localizedFiles('es');
    const months = files.get('options/months.json')!.oneOf as Option[];
    expect(months.map((option) => option.title).slice(0, 3)).toEqual(['enero', 'febrero', 'marzo']);
  });
});
