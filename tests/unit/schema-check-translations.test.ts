/**
 * check:schemas holds every applicant-facing text to its Spanish version: on the real
 * schemas it passes; on a copy with a Spanish text removed, a placeholder changed, a
 * Spanish text left where English has none, or a whole overlay file missing, it fails
 * naming the file, the place and the fix. The overlay merge itself: by code, not position.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { formatProblem, runSchemaCheck } from '../../scripts/schema-check/index.ts';
import { schemasDir } from '../../scripts/schema-files.ts';
import { cldrRegionTitles } from '../../scripts/i18n/cldr.ts';
import { withOverlay } from '../../src/shared/i18n/overlay.ts';

type Json = Record<string, any>;

const work = mkdtempSync(join(tmpdir(), 'schema-translations-'));
let counter = 0;

function checkCopy(edit: (dir: string) => void): string[] {
  const dir = join(work, `case-${++counter}`);
  cpSync(schemasDir, dir, { recursive: true });
  edit(dir);
  process.env.SCHEMAS_DIR = dir;
  return runSchemaCheck().errors.map(formatProblem);
}

function editJson(dir: string, file: string, change: (json: Json) => void): void {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

afterEach(() => {
  delete process.env.SCHEMAS_DIR;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('check:schemas: every text in Spanish', () => {
  it('passes on the real schemas: every applicant-facing text has its Spanish version', () => {
    delete process.env.SCHEMAS_DIR;
    expect(runSchemaCheck().errors.map(formatProblem)).toEqual([]);
  });

  it('fails on a question title without its Spanish, naming the file, the place and the English text', () => {
    const errors = checkCopy((dir) => editJson(dir, 'i18n/es/pages/about.schema.json', (json) => {
      delete json.properties.personal.properties.gender;
    }));
    expect(errors).toEqual([
      'schemas/i18n/es/pages/about.schema.json: "properties.personal.properties.gender.title": no es text for "Gender". '
      + 'Fix: add "properties.personal.properties.gender.title" to schemas/i18n/es/pages/about.schema.json with the text in es.',
    ]);
  });

  it('fails on an option added in English only, named by its code', () => {
    const errors = checkCopy((dir) => editJson(dir, 'options/housing.json', (json) => {
      json.oneOf.push({ const: 'REL', title: 'With relatives near campus' });
    }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('schemas/i18n/es/options/housing.json: "oneOf[const=REL].title": no es text for "With relatives near campus"');
  });

  it('fails when a placeholder differs between the languages', () => {
    const errors = checkCopy((dir) => editJson(dir, 'i18n/es/definitions/parent.schema.json', (json) => {
      json.properties.guardian_graduate.title = '¿Es este padre, madre o tutor egresado de {socio}?';
    }));
    expect(errors).toEqual([
      'schemas/i18n/es/definitions/parent.schema.json: "properties.guardian_graduate.title": the placeholders differ: English has {partner}, es has {socio}. '
      + 'Fix: write the same {placeholders} in both, untranslated (they are filled in by the application).',
    ]);
    const dropped = checkCopy((dir) => editJson(dir, 'i18n/es/text/frame.json', (json) => {
      json.inactivity.body.other = 'Su sesión se cerrará pronto.';
    }));
    expect(dropped.join('\n')).toContain('"inactivity.body.other": the placeholders differ: English has {count}, es has none');
  });

  it('fails on a Spanish text the English file no longer has (a renamed key)', () => {
    const errors = checkCopy((dir) => editJson(dir, 'pages/final-steps.schema.json', (json) => {
      json.properties.recommendations.description = undefined;
      delete json.properties.recommendations.description;
    }));
    expect(errors).toEqual([
      'schemas/i18n/es/pages/final-steps.schema.json: "properties.recommendations.description": schemas/pages/final-steps.schema.json has no text at this place (renamed, moved or removed?). '
      + 'Fix: move it to the key the English text has now, or delete it.',
    ]);
  });

  it('fails on a missing Spanish file, saying how many texts it lacks', () => {
    const errors = checkCopy((dir) => unlinkSync(join(dir, 'i18n/es/options/yes-no.json')));
    expect(errors).toEqual([
      'schemas/i18n/es/options/yes-no.json: the es texts of schemas/options/yes-no.json are missing (2 texts). '
      + 'Fix: create it with the same keys as schemas/options/yes-no.json, holding each text in es.',
    ]);
  });

  it('takes country names from CLDR, not from a hand-made list', () => {
    const countries = JSON.parse(readFileSync(join(schemasDir, 'options/countries.json'), 'utf8')) as Json;
    const overlay = JSON.parse(readFileSync(join(schemasDir, 'i18n/es/options/countries.json'), 'utf8')) as Json;
    expect(overlay).toEqual({ 'x-cldr': 'region' });
    const titles = cldrRegionTitles(countries, 'es');
    expect(titles.size).toBe(countries.oneOf.length);
    expect(titles.get('DEU')).toBe(new Intl.DisplayNames(['es'], { type: 'region' }).of('DE'));
    expect(titles.get('USA')).toBe('Estados Unidos');
  });
});

describe('an overlay merges by code, not by position', () => {
  it('gives each option its own Spanish title whatever the order, and never rewrites a code', () => {
    const english = { oneOf: [{ const: 'Y', title: 'Yes' }, { const: 'N', title: 'No' }, { const: 'U', title: 'Not sure' }] };
    const spanish = withOverlay(english, { oneOf: [{ const: 'U', title: 'No estoy seguro' }, { const: 'Y', title: 'Sí' }] });
    expect(spanish.oneOf).toEqual([{ const: 'Y', title: 'Sí' }, { const: 'N', title: 'No' }, { const: 'U', title: 'No estoy seguro' }]);
    expect(english.oneOf[0]!.title).toBe('Yes');
  });
});
