/**
 * The schema tree in another language: a copy of the schemas directory with each
 * translated file's texts replaced by its overlay (schemas/i18n/<lang>/), CLDR names
 * written out. The generator builds the form from it exactly as from the English files,
 * so the Spanish form differs from the English one in its texts only.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withOverlay } from '../../src/shared/i18n/overlay.ts';
import { loadTree } from '../schema-check/load.ts';
import { currentSchemasDir } from '../schema-files.ts';
import { expandCldr } from './cldr.ts';
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

/** Runs `build` with SCHEMAS_DIR pointing at the tree in `language`, then removes the copy. */
export function withLocalizedTree<T>(language: string, build: () => T): T {
  const source = currentSchemasDir();
  const copy = join(mkdtempSync(join(tmpdir(), `schemas-${language}-`)), 'schemas');
  cpSync(source, copy, { recursive: true });
  for (const [file, overlay] of Object.entries(overlaysOf(language, source))) {
    const english = JSON.parse(readFileSync(join(source, file), 'utf8')) as Json;
    writeFileSync(join(copy, file), JSON.stringify(withOverlay(english, overlay)));
  }
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

/**
 * The texts where `translated` differs from `english` (same shape): an overlay the client
 * and server apply onto the English generated model. List elements keep their position
 * (`{}` where an element has no text of its own), as both models come from one structure.
 */
export function textDifferences(english: unknown, translated: unknown): unknown {
  if (typeof english === 'string' && typeof translated === 'string') return english === translated ? undefined : translated;
  if (Array.isArray(english) && Array.isArray(translated)) {
    const out = english.map((element, index) => textDifferences(element, translated[index]));
    let last = out.length - 1;
    while (last >= 0 && out[last] === undefined) last--;
    return last < 0 ? undefined : out.slice(0, last + 1).map((element) => element ?? {});
  }
  if (english && translated && typeof english === 'object' && typeof translated === 'object') {
    const out: Json = {};
    for (const [key, value] of Object.entries(english)) {
      const difference = textDifferences(value, (translated as Json)[key]);
      if (difference !== undefined) out[key] = difference;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return undefined;
}
