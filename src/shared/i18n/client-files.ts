import { SOURCE_LANGUAGE, type Language } from './languages.ts';

/**
 * The files of a language's build of the client, under dist/client (scripts/build-client.ts
 * writes them, the server reads them): its page and Vite's manifest of its chunks.
 */
export function clientFiles(language: Language): { html: string; manifest: string } {
  return language === SOURCE_LANGUAGE
    ? { html: 'index.html', manifest: '.vite/manifest.json' }
    : { html: `index.${language}.html`, manifest: `.vite/manifest.${language}.json` };
}
