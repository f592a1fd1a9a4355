import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { settle } from './browser.ts';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core in the page. `impacts` filters what counts (default: serious and
 * critical); tags select the rule set (default: WCAG 2.x A and AA).
 */
export async function axeViolations(
  page: Page,
  options: { impacts?: string[]; tags?: string[] } = {},
): Promise<AxeViolation[]> {
  const impacts = options.impacts ?? ['serious', 'critical'];
  const tags = options.tags ?? ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
  await settle(page); // colours are judged after transitions
  await page.evaluate(axeSource);
  const results = await page.evaluate(async (runTags) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: runTags }, resultTypes: ['violations'] });
  }, tags);
  return results.violations
    .filter((violation) => impacts.includes(violation.impact ?? ''))
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
}
