import type { Plugin } from 'postcss';

/** `.bp6-icon-add::before`: the selector of one icon's glyph in Blueprint's icon font. */
const GLYPH = /^\.bp6-icon-[\w-]+::?before$/;

/**
 * Drops the rules that pick an icon's glyph from Blueprint's icon font (`.bp6-icon-add::before
 * { content: "" }`), about 700 rules and 28 KB of its style sheet. The application draws its
 * icons as SVG (src/client/lib/icons.ts) and never loads the font (its `@font-face` lives in
 * @blueprintjs/icons' own sheet, which is not imported), so such a glyph could only show as
 * an unknown character. Rules for an icon's size or colour (`.bp6-icon-large::before`) carry
 * more than `content` and stay. Less to parse on every first visit.
 */
export function withoutIconFontGlyphs(): Plugin {
  return {
    postcssPlugin: 'without-icon-font-glyphs',
    Rule(rule) {
      if (!rule.selectors.every((selector) => GLYPH.test(selector))) return;
      if (rule.nodes.every((node) => node.type === 'decl' && node.prop === 'content')) rule.remove();
    },
  };
}
