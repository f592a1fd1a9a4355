/**
 * (c) An answer key asked on more than one page: the error summary (missing-information
 * panel) sends the applicant to the page of a field key, so a key must belong to one page.
 */
import type { PageWalk } from './page-keys.ts';
import { problem, type Problem } from './problems.ts';

export function checkDuplicateKeys(walks: PageWalk[]): Problem[] {
  const firstPage = new Map<string, PageWalk>();
  const problems: Problem[] = [];
  for (const walk of walks) {
    for (const origin of walk.keys) {
      const earlier = firstPage.get(origin.key);
      if (!earlier) {
        firstPage.set(origin.key, walk);
        continue;
      }
      problems.push(problem('bad configuration', walk.file, origin.key,
        `asked on more than one page (schemas/${earlier.file} and schemas/${walk.file}); the error summary could not tell which page to open`,
        'ask it on one page only, or give one of the questions another key'));
    }
  }
  return problems;
}
