/**
 * CI's run of schema:impact against the previous commit (`npm run schema:impact:previous`,
 * a step of .ci/run), in a git repository of a copy of the project: a commit whose schema
 * change can invalidate saved answers without a version bump fails it; a commit that leaves
 * schemas/ alone, the first commit and a shallow clone of one commit skip it, saying why.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, type ProjectCopy } from '../helpers/project-copy.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CASE_MS = 300_000;

describe('schema:impact against the previous commit in CI', () => {
  let copy: ProjectCopy;
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  const commit = (message: string) => {
    git(copy.dir, 'add', '-A');
    git(copy.dir, '-c', 'user.name=Staff', '-c', 'user.email=staff@example.org', 'commit', '-q', '-m', message);
  };
  const previous = (cwd: string) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/schema-impact-previous.ts'], { cwd, encoding: 'utf8' });

  beforeAll(() => {
    copy = copyProject();
    writeFileSync(join(copy.dir, '.gitignore'), 'node_modules\nsrc/shared/generated/\n');
    git(copy.dir, 'init', '-q', '-b', 'main');
    commit('the project as it is');
    copy.run('scripts/generate.ts'); // as npm test does before this step in .ci/run
  }, CASE_MS);
  afterAll(() => copy?.remove());

  it('skips the first commit, and a commit that leaves schemas/ alone', () => {
    const first = previous(copy.dir);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('no previous commit here');
    writeFileSync(join(copy.dir, 'NOTES.md'), 'not a schema\n');
    commit('a note');
    const unchanged = previous(copy.dir);
    expect(unchanged.status, unchanged.stderr).toBe(0);
    expect(unchanged.stdout).toContain('schemas/ did not change');
  }, CASE_MS);

  it('fails a commit that removes an option saved answers may hold, until the page version is raised', () => {
    copy.editJson('options/gender.json', (list) => { list.oneOf = list.oneOf.filter((option: { const: string }) => option.const !== 'X'); });
    commit('gender without X');
    const unbumped = previous(copy.dir);
    expect(unbumped.status).toBe(1);
    expect(unbumped.stdout).toMatch(/BREAKING option removed/);
    expect(unbumped.stderr).toMatch(/page "about" .* its "version" is still 1/);

    copy.editJson('pages/about.schema.json', (page) => { page.version = 2; });
    commit('about: version 2');
    const bumped = previous(copy.dir);
    expect(bumped.status, bumped.stderr).toBe(0);
  }, CASE_MS);

  it('skips a shallow clone of one commit, saying so', () => {
    const clone = join(copy.dir, '..', 'shallow');
    git(ROOT, 'clone', '-q', '--depth', '1', `file://${copy.dir}`, clone);
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const shallow = previous(clone);
    expect(shallow.status, shallow.stderr).toBe(0);
    expect(shallow.stdout).toContain('a shallow clone');
  }, CASE_MS);
});
