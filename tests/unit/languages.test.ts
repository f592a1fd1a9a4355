/**
 * The pieces of the applicant's language that need no server: the first visit's choice
 * from Accept-Language, the language names from CLDR, plurals by the language's rules,
 * and the catalogue that says a finished English message in Spanish.
 */
import { describe, expect, it } from 'vitest';
import { languageAutonym, negotiateLanguage } from '../../src/shared/i18n/languages.ts';
import { messageCatalogue } from '../../src/shared/i18n/message-catalogue.ts';
import { pluralText, setPluralLanguage } from '../../src/shared/text/plural.ts';

describe('the language of a first visit', () => {
  it('takes the best language the browser asks for that the application speaks, else English', () => {
    expect(negotiateLanguage('es-MX,es;q=0.9,en;q=0.8')).toBe('es');
    expect(negotiateLanguage('en-US,en;q=0.9,es;q=0.8')).toBe('en');
    expect(negotiateLanguage('fr-CA,fr;q=0.9,es;q=0.7,en;q=0.5')).toBe('es');
    expect(negotiateLanguage('de, *;q=0.1')).toBe('en');
    expect(negotiateLanguage('es;q=0, en;q=0.2')).toBe('en');
    expect(negotiateLanguage(undefined)).toBe('en');
  });

  it('names each language in itself, from CLDR', () => {
    expect(languageAutonym('en')).toBe('English');
    expect(languageAutonym('es')).toBe('Español');
  });
});

describe('plurals by the language\'s rules', () => {
  it('picks the form Intl.PluralRules names for the count', () => {
    const forms = { one: '{count} segundo', other: '{count} segundos' };
    setPluralLanguage('es');
    expect([1, 2, 0].map((count) => pluralText(forms, count))).toEqual(['1 segundo', '2 segundos', '0 segundos']);
    setPluralLanguage('en-US');
  });
});

describe('the message catalogue', () => {
  const catalogue = messageCatalogue([
    ['We sent a 6-digit confirmation code to {username}. Enter it below to confirm your account.', 'Enviamos un código de confirmación de 6 dígitos a {username}. Escríbalo a continuación para confirmar su cuenta.'],
    ['Password is required.', 'La contraseña es obligatoria.'],
    ['The number of {id} must be a whole number from 1 to {max}.', 'El número de {id} debe ser un número entero de 1 a {max}.'],
  ]);

  it('says a message with its values filled in, in the other language with the same values', () => {
    expect(catalogue.translate('We sent a 6-digit confirmation code to a.b+c@example.org. Enter it below to confirm your account.'))
      .toBe('Enviamos un código de confirmación de 6 dígitos a a.b+c@example.org. Escríbalo a continuación para confirmar su cuenta.');
    expect(catalogue.translate('The number of college (1.5) must be a whole number from 1 to 10.')).toBe('El número de college (1.5) debe ser un número entero de 1 a 10.');
    expect(catalogue.translate('Password is required.')).toBe('La contraseña es obligatoria.');
  });

  it('leaves a message it does not know as it is', () => {
    expect(catalogue.translate('Something else.')).toBe('Something else.');
  });
});
