import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OVERLAY_LANGUAGES, SOURCE_LANGUAGE } from '../../src/shared/i18n/languages.ts';

/**
 * The first visit to a form page stays under 200 KB of JavaScript (gzip) in every language,
 * read off the built client (npm run build): the entry, the app's start and the form page's
 * module, with every chunk they import, as the precompressed files the server sends.
 * `npm run bench:form` measures the same in Chromium, with the scripts a visit really loads.
 */
const BUDGET_KB = 200;
const FIRST_VISIT = ['index.html', 'src/client/start.tsx', 'src/client/app/FormPageRoute.tsx'];
const dist = new URL('../../dist/client/', import.meta.url);

type Manifest = Record<string, { file: string; imports?: string[] }>;

function firstVisitKb(manifestName: string): { kb: number; files: string[] } {
  const manifest = JSON.parse(readFileSync(new URL(`.vite/${manifestName}`, dist), 'utf8')) as Manifest;
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in ${manifestName}: the first visit's modules have moved`);
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  FIRST_VISIT.forEach(visit);
  const files = [...seen].map((key) => manifest[key]!.file);
  const bytes = files.reduce((sum, file) => sum + statSync(new URL(`${file}.gz`, dist)).size, 0);
  return { kb: bytes / 1024, files };
}

describe('the first visit\'s JavaScript', () => {
  for (const language of [SOURCE_LANGUAGE, ...OVERLAY_LANGUAGES]) {
    const manifestName = language === SOURCE_LANGUAGE ? 'manifest.json' : `manifest.${language}.json`;
    it(`stays under ${BUDGET_KB} KB gzip in ${language}`, () => {
      expect(existsSync(new URL(`.vite/${manifestName}`, dist)), `${manifestName}: run npm run build`).toBe(true);
      const { kb, files } = firstVisitKb(manifestName);
      expect(files.length).toBeGreaterThan(3);
      expect(kb).toBeLessThan(BUDGET_KB);
    });
  }
});
