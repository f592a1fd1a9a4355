import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { form } from '../../shared/form/form-model-data.ts';
import { API_ROUTES } from '../../shared/generated/api-types.ts';

/**
 * What the HTML of a page route starts loading before any script runs: the
 * chunks of the route's lazy module (modulepreload, read from Vite's manifest), and for a
 * signed-in visitor on a form page the three reads the profile gate makes (preload as
 * fetch; the client's fetch of the same address takes the preloaded answer). Without
 * them the route's chunk and the profile would wait for the whole entry bundle to run.
 */

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

/** The lazy module of each page route (src/client/app/router.tsx). */
const ROUTE_MODULES: Record<string, string> = {
  ...Object.fromEntries(form.pageOrder.map((page) => [`/${page}`, 'src/client/app/FormPageRoute.tsx'])),
  '/completion': 'src/client/app/CompletionPage.tsx',
  '/signup': 'src/client/features/accounts/SignupPage.tsx',
  '/confirm': 'src/client/features/accounts/ConfirmPage.tsx',
  '/login': 'src/client/features/accounts/LoginPage.tsx',
  '/forgot': 'src/client/features/accounts/ForgotPage.tsx',
  '/reset': 'src/client/features/accounts/ResetPage.tsx',
  '/counselor': 'src/client/features/application-file/CounselorPage.tsx',
};

const START_MODULE = 'src/client/start.tsx';

/** The profile gate's reads for a signed-in applicant (src/client/session/profile.ts). */
const PROFILE_READS = [API_ROUTES.profile.path, API_ROUTES.addAnother.path, API_ROUTES.tabs.path];
const FORM_PATHS = new Set(form.pageOrder.map((page) => `/${page}`));

/** The files a chunk loads, itself first, following static imports. */
function chunkFiles(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) chunkFiles(manifest, imported, into);
  return into;
}

export interface PagePreloads {
  /** The link tags to put in the head of the page at this path (no query string). */
  tagsFor(path: string, signedIn: boolean): string;
}

/** A build's preloads, from its manifest (each language's build has its own: src/shared/i18n/client-files.ts). */
export function readPagePreloads(clientDir: string, manifestFile = '.vite/manifest.json'): PagePreloads {
  const manifestPath = join(clientDir, manifestFile);
  const manifest: Manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest : {};
  // the entry's own chunks are in index.html already
  const inHtml = new Set(Object.keys(manifest).filter((key) => manifest[key]!.isEntry).flatMap((key) => [...chunkFiles(manifest, key)]));
  // the app's start, which the entry imports once the page's language is in place
  // (src/client/main.tsx), then the route's own chunks: each file named once
  const start = chunkFiles(manifest, START_MODULE);
  const modulesByPath = new Map(Object.entries(ROUTE_MODULES).map(([path, source]) => [
    path,
    [...new Set([...start, ...chunkFiles(manifest, source)])].filter((file) => !inHtml.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join(''),
  ]));
  const profileTags = PROFILE_READS.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`).join('');
  return {
    tagsFor: (path, signedIn) => (modulesByPath.get(path) ?? '') + (signedIn && FORM_PATHS.has(path) ? profileTags : ''),
  };
}
