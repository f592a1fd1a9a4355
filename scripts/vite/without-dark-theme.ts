import type { Plugin } from 'postcss';

/** Selectors that only match inside Blueprint's dark theme, which the application never turns on. */
const DARK = ['.bp6-dark', '[data-bp-color-scheme=dark]'];
const isDark = (selector: string) => DARK.some((marker) => selector.includes(marker));

/**
 * Drops the selectors of Blueprint's dark theme, about a quarter of its style sheet: the
 * application never sets `bp6-dark` or `data-bp-color-scheme="dark"`, and Blueprint adds the
 * class only below an element that has it, so none of them can match. Less to parse and to
 * match on every first visit. Rules for forced colours (Windows contrast themes,
 * dark or not) are media queries, not these selectors, and stay.
 */
export function withoutDarkTheme(): Plugin {
  return {
    postcssPlugin: 'without-blueprint-dark-theme',
    Rule(rule) {
      if (!isDark(rule.selector)) return;
      const kept = rule.selectors.filter((selector) => !isDark(selector));
      if (kept.length) rule.selectors = kept;
      else rule.remove();
    },
  };
}
