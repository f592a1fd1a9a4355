import { readFileSync, readdirSync } from 'node:fs';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { blueprintClassesIn, readUsedList, withoutUnusedBlueprintRules } from '../../scripts/vite/unused-blueprint-rules.ts';
import { withoutDarkTheme } from '../../scripts/vite/without-dark-theme.ts';

/**
 * The built client's style sheet against its bundle: it reads dist/ (npm run build), so
 * it runs in the server lane, not the unit lane. The pruning itself: tests/unit/style-sheet.test.ts.
 */
const source = readFileSync(new URL('../../node_modules/@blueprintjs/core/lib/css/blueprint.css', import.meta.url), 'utf8');
const prune = (css: string, used: string[]) => postcss([withoutUnusedBlueprintRules(used)]).process(css, { from: undefined }).root.toString();

describe('the built style sheet without unused Blueprint rules', () => {
  it('was built from a list that holds every class the built bundle sets', () => {
    const assets = new URL('../../dist/client/assets/', import.meta.url);
    // read chunk by chunk, as the build does: a minified name means something else in another chunk
    const chunks = readdirSync(assets).filter((name) => name.endsWith('.js')).map((name) => readFileSync(new URL(name, assets), 'utf8'));
    const inBundle = new Set(chunks.flatMap((code) => [...blueprintClassesIn(code)]));
    const listed = new Set(readUsedList());
    const unlisted = [...inBundle].filter((name) => !listed.has(name) && prune(`.${name}{a:1}`, []) === '');
    expect(unlisted).toEqual([]);
    // and the list prunes the real sheet: more than a fifth of Blueprint's light theme goes
    const light = postcss([withoutDarkTheme()]).process(source, { from: undefined }).root.toString();
    expect(prune(light, [...listed]).length).toBeLessThan(light.length * 0.8);
  });
});
