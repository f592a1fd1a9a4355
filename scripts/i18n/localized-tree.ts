/**
 * The schema tree in another language: a copy of the schemas directory with each
 * translated file's texts replaced by its overlay (schemas/i18n/<lang>/), CLDR names
 * written out. The generator builds the form from it exactly as from the English files,
 * so the Spanish form differs from the English one in its texts only (and the order of a
 * list named by CLDR, sorted as the language sorts).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withOverlay } from '../../src/shared/i18n/overlay.ts';
import { loadTree } from '../schema-check/load.ts';
import { currentSchemasDir } from '../schema-files.ts';
import { expandCldr, inLanguageOrder, isCldrNamed } from './cldr.ts';
import { isTranslatedFile } from './text-entries.ts';

type Json = Record<string, unknown>;

/** Each translated file's overlay in `language`, CLDR names written out: path → overlay. */
export function overlaysOf(language: string, dir: string = currentSchemasDir()): Record<string, Json> {
  const tree = loadTree(dir);
  const overlays: Record<string, Json> = {};
  for (const [file, english] of tree.files) {
    if (!isTranslatedFile(file)) continue;
    const overlay = tree.files.get(`i18n/${language}/${file}`) as Json | undefined;
    if (overlay) overlays[file] = expandCldr(english as Json, overlay, language);
  }
  return overlays;
}

/**
 * Each translated file whole in `language`: the English file with its overlay's texts, a
 * CLDR-named list in the language's alphabetical order. What the language's build of the
 * client imports in place of the English file, and what its form is generated from.
 */
export function localizedFiles(language: string, dir: string = currentSchemasDir()): Map<string, Json> {
  const tree = loadTree(dir);
  const files = new Map<string, Json>();
  for (const [file, overlay] of Object.entries(overlaysOf(language, dir))) {
    const localized = withOverlay(tree.files.get(file) as Json, overlay);
    files.set(file, isCldrNamed(tree.files.get(`i18n/${language}/${file}`) as Json) ? inLanguageOrder(localized, language) : localized);
  }
  return files;
}

/** Runs `build` with SCHEMAS_DIR pointing at the tree in `language`, then removes the copy. */
export function withLocalizedTree<T>(language: string, build: () => T): T {
  const source = currentSchemasDir();
  const copy = join(mkdtempSync(join(tmpdir(), `schemas-${language}-`)), 'schemas');
  cpSync(source, copy, { recursive: true });
  for (const [file, localized] of localizedFiles(language, source)) writeFileSync(join(copy, file), JSON.stringify(localized));
  const before = process.env.SCHEMAS_DIR;
  process.env.SCHEMAS_DIR = copy;
  try {
    return build();
  } finally {
    if (before === undefined) delete process.env.SCHEMAS_DIR;
    else process.env.SCHEMAS_DIR = before;
    rmSync(join(copy, '..'), { recursive: true, force: true });
  }
}
