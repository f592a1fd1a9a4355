/**
 * CI's schema check on saved answers: `npm run schema:impact -- HEAD~1 --no-database`
 * when the last commit changed schemas/, so a change that can orphan or invalidate
 * saved answers without a page version bump stops the run (exit 1). Skipped, saying
 * why, when there is no previous commit to compare with (the first commit, or a shallow
 * clone of one commit) or schemas/ did not change: cheap on every other commit.
 */
import { spawnSync } from 'node:child_process';

const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' });

if (git('rev-parse', '--verify', '--quiet', 'HEAD~1^{commit}').status !== 0) {
  const shallow = git('rev-parse', '--is-shallow-repository').stdout.trim() === 'true';
  console.log(`schema:impact skipped: no previous commit here${shallow ? ' (a shallow clone: fetch with --depth 2 or more to compare)' : ''}.`);
} else if (git('diff', '--quiet', 'HEAD~1', 'HEAD', '--', 'schemas').status === 0) {
  console.log('schema:impact skipped: schemas/ did not change in the last commit.');
} else {
  compare();
}

/** The comparison itself; it needs the generated form (npm test, before it in .ci/run, makes it). */
function compare(): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/schema-impact.ts', 'HEAD~1', '--no-database'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  process.exitCode = run.status ?? 1;
}
