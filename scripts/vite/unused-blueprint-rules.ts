import { readFileSync, writeFileSync } from 'node:fs';
import type { Plugin as PostcssPlugin } from 'postcss';
import type { Plugin as VitePlugin } from 'vite';

/*
 * Blueprint's style sheet styles about a thousand classes; the application's bundle uses
 * under a hundred. Rules that need a class nothing can set are dropped at build time (issue
 * 17: less to parse and to match on every first visit). The classes used are read off the
 * built bundle and kept in USED_LIST, which the style sheets are built from, so a changed
 * style sheet gets a new hashed name; a build whose bundle uses a class the list lacks
 * updates the list and fails, asking for another build.
 */

const USED_LIST = new URL('./blueprint-classes.json', import.meta.url);

/**
 * Classes Blueprint puts together at run time from a name and a value (intent, elevation,
 * icon, position, placement) and react-transition-group's state suffixes: kept whatever
 * the bundle's text says.
 */
const BUILT_AT_RUN_TIME = /^bp6-(intent|elevation|icon|position|toast-container|popover|align)-|-(enter|exit|appear)(-active|-done)?$/;

/**
 * The Blueprint classes a bundle's code can set: written out (`bp6-button`), or as
 * Blueprint's compiled constants write them, from the namespace or from another constant
 * (`j=\`bp6\``, `Yn=\`${j}-control\``, `Zn=\`${Yn}-indicator\``), or joined to a
 * constant (`N+\`-border\``). Names are resolved within one chunk (minified names are
 * the chunk's own); one that does not resolve counts as the namespace, which keeps more.
 */
export function blueprintClassesIn(code: string): Set<string> {
  const found = new Set<string>();
  for (const [name] of code.matchAll(/bp6-[\w-]+/g)) found.add(name);
  const defined = new Map<string, string>();
  for (const match of code.matchAll(/([\w$]+)=[`"']bp6[`"']/g)) defined.set(match[1]!, 'bp6');
  const parts = new Map<string, [string, string]>();
  for (const match of code.matchAll(/([\w$]+)=`\$\{([\w$]+)\}-([\w-]+)`/g)) parts.set(match[1]!, [match[2]!, match[3]!]);
  const resolve = (name: string, depth = 0): string | undefined => {
    if (defined.has(name)) return defined.get(name);
    const part = parts.get(name);
    if (!part || depth > 10) return undefined;
    const base = resolve(part[0], depth + 1);
    return base && `${base}-${part[1]}`;
  };
  const joined = [...code.matchAll(/\$\{([\w$]+)\}-([\w-]+)/g), ...code.matchAll(/([\w$]+)\+`-([\w-]+)`/g)];
  for (const [, base, suffix] of joined) found.add(`${resolve(base!) ?? 'bp6'}-${suffix}`);
  return found;
}

export const readUsedList = (): string[] => JSON.parse(readFileSync(USED_LIST, 'utf8')) as string[];

/** The classes a selector needs on an element; those inside :not(), :is(), :where() or :has() are not required. */
function requiredClasses(selector: string): string[] {
  let outer = selector;
  for (let previous = ''; previous !== outer;) {
    previous = outer;
    outer = outer.replace(/:(not|is|where|has)\([^()]*\)/g, '');
  }
  return (outer.match(/\.bp6-[\w-]+/g) ?? []).map((name) => name.slice(1));
}

/** The PostCSS rule: drops each selector that needs a Blueprint class outside `used`, and rules and blocks left empty. */
export function withoutUnusedBlueprintRules(used: Iterable<string> = readUsedList()): PostcssPlugin {
  const kept = new Set(used);
  const settable = (name: string) => kept.has(name) || BUILT_AT_RUN_TIME.test(name);
  return {
    postcssPlugin: 'without-unused-blueprint-rules',
    Rule(rule) {
      if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as { name: string }).name)) return;
      const selectors = rule.selectors.filter((selector) => requiredClasses(selector).every(settable));
      if (selectors.length === 0) rule.remove();
      else if (selectors.length !== rule.selectors.length) rule.selectors = selectors;
    },
    OnceExit(root) {
      root.walkAtRules((block) => {
        if (block.nodes?.length === 0) block.remove();
      });
    },
  };
}

/** Checks the built bundle against USED_LIST; a class used but missing there would have lost its rules. */
export function blueprintClassesCheck(): VitePlugin {
  return {
    name: 'blueprint-classes-check',
    apply: 'build',
    generateBundle(_options, bundle) {
      const used = new Set<string>();
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') for (const name of blueprintClassesIn(file.code)) used.add(name);
      }
      const listed = readUsedList();
      const missing = [...used].filter((name) => !listed.includes(name) && !BUILT_AT_RUN_TIME.test(name));
      const unused = listed.filter((name) => !used.has(name));
      if (!missing.length && !unused.length) return;
      writeFileSync(USED_LIST, `${JSON.stringify([...used].filter((name) => !BUILT_AT_RUN_TIME.test(name)).sort(), null, 1)}\n`);
      if (missing.length) {
        this.error(`The bundle uses Blueprint classes whose rules this build dropped: ${missing.join(', ')}. scripts/vite/blueprint-classes.json is updated: build again.`);
      }
      this.warn(`Blueprint classes no longer used: ${unused.join(', ')}. scripts/vite/blueprint-classes.json is updated; the next build drops their rules.`);
    },
  };
}
