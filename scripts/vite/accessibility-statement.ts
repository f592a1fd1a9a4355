import { readFile } from 'node:fs/promises';
import type { Plugin } from 'vite';
import { ACCESSIBILITY_STATEMENT_PATH } from '../../src/shared/accessibility-statement.ts';

/**
 * Puts docs/accessibility-statement.md into the built client as a plain-text file, so the
 * footer's link opens the statement the team keeps, not a copy that could drift from it.
 * Plain text: markdown reads well as it is, and no renderer joins the bundle.
 */
export function accessibilityStatement(source: string): Plugin {
  return {
    name: 'accessibility-statement',
    apply: 'build',
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName: ACCESSIBILITY_STATEMENT_PATH.slice(1), source: await readFile(source, 'utf8') });
    },
  };
}
