import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildForm, modelFile } from './form-model.ts';
import { generateApiTypes } from './api-types.ts';
import { generateTypes } from './types.ts';
import { generateValidators } from './validators.ts';
import { LANGUAGES, languageAutonym, OVERLAY_LANGUAGES } from '../../src/shared/i18n/languages.ts';
import { languageTexts } from './language-texts.ts';
import { shownBanners, type Deadline } from '../../src/shared/deadlines/cycle-dates.ts';
import type { Banners } from '../../src/shared/generated/types.ts';
import { localizedFiles } from '../i18n/localized-tree.ts';
import { readJson } from '../schema-files.ts';

/** The banners as the frame shows them in `language`: each window's end and {deadline} worked out from deadlines.json. */
function bannersFile(language: string): string {
  const banners = (language === 'en' ? readJson('banners.json') : localizedFiles(language).get('banners.json')) as Banners;
  return JSON.stringify(shownBanners(banners.banners, readJson<{ deadlines: Deadline[] }>('deadlines.json').deadlines, language));
}

/**
 * Where the generated files go: GENERATED_DIR when set (read at call time, so a test can
 * generate from a copy of the schemas without touching the app's own files), else
 * src/shared/generated.
 */
function outputDir(): string {
  return process.env.GENERATED_DIR ? resolve(process.env.GENERATED_DIR) : resolve(import.meta.dirname, '..', '..', 'src', 'shared', 'generated');
}

/** Writes a generated file only when its content changed, so watchers see real changes only. */
function write(outDir: string, name: string, content: string): boolean {
  const path = resolve(outDir, name);
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  writeFileSync(path, content);
  return true;
}

/** The page ids of the frame's steps, as a type: a page added in schemas/ needs no TypeScript. */
function pageIdsModule(ids: string[]): string {
  return [
    '/* Generated from schemas/text/frame.json by scripts/generate.ts. Do not edit by hand. */',
    `export const PAGE_IDS = ${JSON.stringify(ids)} as const;`,
    'export type PageId = (typeof PAGE_IDS)[number];',
    '',
  ].join('\n');
}

/** Every generated file; `types: false` skips the TypeScript types (the dev server needs none). */
export async function generateAll(options: { types?: boolean } = {}): Promise<{ validators: number; changed: string[] }> {
  const outDir = outputDir();
  mkdirSync(outDir, { recursive: true });
  const form = buildForm();
  const validators = generateValidators(form.validation);
  const files: [string, string][] = [
    ['form-model.json', modelFile(form.model)],
    ['page-messages.json', JSON.stringify(form.messages)],
    ['validators.js', validators.auth.code],
    ['validators.d.ts', validators.auth.declarations],
    ['page-validators.js', validators.pages.code],
    ['page-validators.d.ts', validators.pages.declarations],
    ['page-ids.ts', pageIdsModule(form.model.pageOrder)],
    // each step's number, by its place in text/frame.json "steps": staff add or move a page and never renumber
    ['step-numbers.json', JSON.stringify(Object.fromEntries(form.model.pageOrder.map((id, index) => [`/${id}`, index + 1])))],
    ['banners-shown.json', bannersFile('en')],
    ...OVERLAY_LANGUAGES.map((language): [string, string] => [`${language}/banners-shown.json`, bannersFile(language)]),
    ['language-names.json', JSON.stringify(Object.fromEntries(LANGUAGES.map((code) => [code, languageAutonym(code)])))],
    ...OVERLAY_LANGUAGES.flatMap((language): [string, string][] => {
      const { client, server } = languageTexts(language, form);
      return [...Object.entries(client).map(([name, content]): [string, string] => [`${language}/${name}`, content]), [`i18n-${language}-server.json`, JSON.stringify(server)]];
    }),
  ];
  if (options.types !== false) files.push(['types.ts', await generateTypes()], ['api-types.ts', await generateApiTypes()]);
  const changed = files.filter(([name, content]) => write(outDir, name, content)).map(([name]) => name);
  return { validators: validators.count, changed };
}
