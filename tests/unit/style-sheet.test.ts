import { readFileSync } from 'node:fs';
import postcss, { type Root } from 'postcss';
import { describe, expect, it } from 'vitest';
import { blueprintClassesIn, withoutUnusedBlueprintRules } from '../../scripts/vite/unused-blueprint-rules.ts';
import { withoutDarkTheme } from '../../scripts/vite/without-dark-theme.ts';
import { withoutIconFontGlyphs } from '../../scripts/vite/without-icon-font-glyphs.ts';

/** The build drops Blueprint's dark theme from the style sheet, and nothing else. */
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

/** Rules that need a Blueprint class the bundle never sets are dropped; nothing else is. */
describe('the style sheet without unused Blueprint rules', () => {
  const prune = (css: string, used: string[]) => postcss([withoutUnusedBlueprintRules(used)]).process(css, { from: undefined }).root.toString();

  it('keeps a rule only for classes the bundle can set, selector by selector', () => {
    const css = '.bp6-button{a:1}.bp6-slider{b:2}.bp6-button .bp6-slider,.bp6-button:hover{c:3}.field-invalid{d:4}';
    expect(prune(css, ['bp6-button'])).toBe('.bp6-button{a:1}.bp6-button:hover{c:3}.field-invalid{d:4}');
  });

  it('does not require the classes inside :not(), :is() and :where()', () => {
    const css = '.bp6-button:not(.bp6-slider){a:1}.bp6-button:is(.bp6-slider,.bp6-tree){b:2}:where(.bp6-slider) .bp6-tree{c:3}';
    expect(prune(css, ['bp6-button'])).toBe('.bp6-button:not(.bp6-slider){a:1}.bp6-button:is(.bp6-slider,.bp6-tree){b:2}');
  });

  it('keeps the classes Blueprint and its transitions put together at run time', () => {
    const css = '.bp6-intent-danger{a:1}.bp6-elevation-2{b:2}.bp6-toast-container-top{c:3}.bp6-overlay-enter-active{d:4}.bp6-popover-placement-top{e:5}';
    expect(prune(css, [])).toBe(css);
  });

  it('drops a block left empty and keeps keyframes', () => {
    const css = '@media (min-width: 1px){.bp6-slider{a:1}}@keyframes bp6-spin{from{b:2}to{c:3}}';
    expect(prune(css, [])).toBe('@keyframes bp6-spin{from{b:2}to{c:3}}');
  });

  it('reads the classes a bundle sets, written out or as Blueprint\'s constants write them', () => {
    expect([...blueprintClassesIn('x=`bp6-input`;y=`${j}-button`;z=`${j}-${k}`;w="bp6-"+v')].sort()).toEqual(['bp6-button', 'bp6-input']);
    // constants built from constants, and a constant joined to a suffix
    const nested = 'j=`bp6`,Yn=`${j}-control`,Zn=`${Yn}-indicator`,Qn=`${Zn}-child`;c(N+`-border`)';
    expect([...blueprintClassesIn(nested)].sort()).toEqual(['bp6-border', 'bp6-control', 'bp6-control-indicator', 'bp6-control-indicator-child']);
  });
});

/** The icon font's glyph rules go (icons are SVG, the font is never loaded); size and colour rules stay. */
describe('the style sheet without the icon font\'s glyphs', () => {
  const strip = (css: string) => postcss([withoutIconFontGlyphs()]).process(css, { from: undefined }).root.toString();

  it('drops a rule that only sets an icon\'s glyph, and keeps the rest', () => {
    const css = '.bp6-icon-add::before{content:"\\f101"}.bp6-icon-cross:before{content:"x"}'
      + '.bp6-icon-large::before{font-family:blueprint-icons-20;content:""}.bp6-icon-add::before,.bp6-button{content:""}.bp6-icon-add{color:red}';
    expect(strip(css)).toBe('.bp6-icon-large::before{font-family:blueprint-icons-20;content:""}.bp6-icon-add::before,.bp6-button{content:""}.bp6-icon-add{color:red}');
  });

  it('leaves no glyph rule in Blueprint\'s sheet, which loads no icon font', () => {
    const before = postcss.parse(source);
    const glyphRules = (root: Root) => {
      let count = 0;
      root.walkRules((rule) => {
        if (rule.selectors.every((selector) => /^\.bp6-icon-[\w-]+::?before$/.test(selector)) && rule.nodes.every((node) => node.type === 'decl' && node.prop === 'content')) count++;
      });
      return count;
    };
    expect(glyphRules(before)).toBeGreaterThan(500);
    expect(glyphRules(postcss([withoutIconFontGlyphs()]).process(source, { from: undefined }).root)).toBe(0);
    // the premise: the sheet declares no icon font for a glyph to come from
    expect(source).not.toMatch(/@font-face[^}]*blueprint-icons/);
  });
});
