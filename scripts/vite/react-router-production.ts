import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/**
 * React Router's package exports only its development build, to every bundler and in every
 * mode (remix-run/react-router#14102, open): its dev-only warnings run and ship in a
 * production bundle. The production build sits beside it (`dist/production`, the same code
 * with `ENABLE_DEV_WARNINGS` false); a production build of ours resolves `react-router` and
 * `react-router/dom` (which react-router-dom re-exports) there. `npm run dev` keeps the
 * warnings.
 */
export function reactRouterProductionBuild(): Plugin {
  const production = join(dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist', 'production');
  const entries: Record<string, string> = {
    'react-router': join(production, 'index.mjs'),
    'react-router/dom': join(production, 'dom-export.mjs'),
  };
  return {
    name: 'react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source) => entries[source],
  };
}
