import { readFileSync } from 'node:fs';
import postcss, { type Root } from 'postcss';
import { describe, expect, it } from 'vitest';
import { withoutDarkTheme } from '../../scripts/vite/without-dark-theme.ts';

/** Issue 17: the build drops Blueprint's dark theme from the style sheet, and nothing else. */
const source = readFileSync(new URL('../../node_modules/@blueprintjs/core/lib/css/blueprint.css', import.meta.url), 'utf8');
const selectorsOf = (root: Root) => {
  const found: string[] = [];
  root.walkRules((rule) => {
    const within = rule.parent?.type === 'atrule' ? `@${(rule.parent as { params: string }).params} ` : '';
    for (const selector of rule.selectors) found.push(`${within}${selector}`);
  });
  return found;
};

describe('the style sheet without the dark theme', () => {
  const before = postcss.parse(source);
  const after = postcss([withoutDarkTheme()]).process(source, { from: undefined }).root;
  const dark = (selector: string) => selector.includes('.bp6-dark') || selector.includes('[data-bp-color-scheme=dark]');

  it('has no selector of the dark theme left', () => {
    expect(selectorsOf(before).filter(dark).length).toBeGreaterThan(1000);
    expect(selectorsOf(after).filter(dark)).toEqual([]);
  });

  it('keeps every other selector, in order, and the forced-colours rules', () => {
    expect(selectorsOf(after)).toEqual(selectorsOf(before).filter((selector) => !dark(selector)));
    expect(after.toString()).toContain('(forced-colors: active) and (prefers-color-scheme: dark)');
    expect(after.toString().length).toBeLessThan(source.length * 0.8);
  });
});
