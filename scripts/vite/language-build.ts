/**
 * The client is built once per language, each build with that language's texts in place:
 * a schema file, the form model, the page messages and the account validators are read
 * from their copies in the language (src/shared/generated/<lang>/, written by gen:types)
 * under the English module's own name. A visitor loads only their language's texts, the
 * app needs no step to put them in place, and a chunk with no texts comes out the same in
 * every language's build (scripts/build-client.ts puts the builds side by side).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import { isLanguage, SOURCE_LANGUAGE, type Language } from '../../src/shared/i18n/languages.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const GENERATED = join(ROOT, 'src', 'shared', 'generated');

/** The language a build is for: APP_LANGUAGE, else English. */
export function buildLanguage(): Language {
  const named = process.env.APP_LANGUAGE;
  if (named === undefined || named === '') return SOURCE_LANGUAGE;
  if (!isLanguage(named)) throw new Error(`APP_LANGUAGE=${named}: not a language the application speaks`);
  return named;
}

/** The copy in `language` of the module at `path`, if it has one. */
function localizedCopy(path: string, language: Language): string | undefined {
  const fromRoot = relative(ROOT, path).split(sep).join('/');
  const fromGenerated = relative(GENERATED, path).split(sep).join('/');
  const copy = fromRoot.startsWith('schemas/') ? join(GENERATED, language, fromRoot)
    : !fromGenerated.startsWith('..') && !fromGenerated.includes('/') ? join(GENERATED, language, fromGenerated)
      : undefined;
  return copy && existsSync(copy) ? copy : undefined;
}

/**
 * `language` is the build's; a function is asked at each module load: the staff preview's
 * development server changes it when staff choose the texts' language (schema-preview.ts).
 */
export function languageBuild(language: Language | (() => Language)): Plugin {
  const current = typeof language === 'function' ? language : () => language;
  return {
    name: 'language-build',
    enforce: 'pre',
    load(id) {
      const language = current();
      if (language === SOURCE_LANGUAGE) return null;
      const copy = localizedCopy(id.split('?', 1)[0]!, language);
      if (!copy) return null;
      this.addWatchFile(copy);
      return readFileSync(copy, 'utf8');
    },
    // the page says its language before any script runs (the server writes it too)
    transformIndexHtml: (html) => html.replace(/<html lang="[^"]*">/, `<html lang="${current()}">`),
  };
}
