import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { settle } from '../../support/browser.ts';
import { countUnit } from '../../support/test-units.ts';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Every impact axe reports, from minor to critical. */
export const ALL_IMPACTS = ['minor', 'moderate', 'serious', 'critical'];
/** The WCAG 2.2 AA rule set: every A and AA success criterion of WCAG 2.0, 2.1 and 2.2. */
export const WCAG22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeOptions {
  /** impacts that count (default: serious and critical; strict: all) */
  impacts?: string[];
  /** the rule set by tag (default: WCAG 2.x A and AA plus best practices; strict: WCAG 2.2 A and AA) */
  tags?: string[];
  /**
   * Strict mode: every violation of the WCAG 2.2 AA rule set counts, whatever its impact.
   * Explicit `impacts` or `tags` still win.
   */
  strict?: boolean;
}

/**
 * Runs axe-core in the page. `impacts` filters what counts (default: serious and
 * critical); tags select the rule set (default: WCAG 2.x A and AA).
 */
export async function axeViolations(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const impacts = options.impacts ?? (options.strict ? ALL_IMPACTS : ['serious', 'critical']);
  const tags = options.tags ?? (options.strict ? WCAG22_AA_TAGS : [...WCAG22_AA_TAGS, 'best-practice']);
  countUnit('axe run');
  await settle(page); // colours are judged after transitions
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource); // once per document
  const results = await page.evaluate(async (runTags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: runTags }, resultTypes: ['violations'] });
  }, tags);
  return results.violations
    .filter((violation) => impacts.includes(violation.impact ?? ''))
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
}

/** Strict mode: no violation at all of WCAG 2.2 A and AA, of any impact. */
export function strictAxeViolations(page: Page): Promise<AxeViolation[]> {
  return axeViolations(page, { strict: true });
}
