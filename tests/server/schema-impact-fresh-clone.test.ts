/**
 * npm run schema:impact on a fresh clone, as staff run it after `git clone` and nothing
 * else: the generated form the server's modules read is not there yet, and the command
 * makes it first (as `npm start` does) instead of stopping with a stack trace. The copy
 * shares this checkout's node_modules, so it runs the command's script itself: the npm
 * script's package check (ensure-deps) would reinstall the shared packages for a lockfile
 * copied later than them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject } from '../helpers/project-copy.ts';

describe('schema:impact on a fresh clone', () => {
  const copy = copyProject(); // sources and schemas, no src/shared/generated
  afterAll(() => copy.remove());

  it('prepares the generated form, then reports a new required question', () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: copy.dir, encoding: 'utf8', stdio: 'pipe' });
    writeFileSync(join(copy.dir, '.gitignore'), 'node_modules\nsrc/shared/generated/\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.name=Staff', '-c', 'user.email=staff@example.org', 'commit', '-q', '-m', 'the project as cloned');
    expect(existsSync(join(copy.dir, 'src', 'shared', 'generated', 'form-model.json'))).toBe(false);

    // the guide's example 2, the question made required
    copy.editJson('data-model.json', (model) => { model.keys.has_former_name = { type: 'code' }; });
    copy.editJson('pages/about.schema.json', (page) => {
      page.properties.personal.properties.has_former_name = { title: 'Have you used another last name?', $ref: '../options/yes-no.json' };
      page.properties.personal.required.push('has_former_name');
    });
    copy.editJson('pages/about.ui.json', (ui) => { ui.personal.has_former_name = { 'ui:widget': 'radio' }; });

    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/schema-impact.ts', 'HEAD', '--no-database'], { cwd: copy.dir, env: copy.environment(), encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|at .*\(.*:\d+:\d+\)/);
    expect(run.stderr).toContain('Generating the form from schemas/');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('question added: "Have you used another last name?" (has_former_name) added (required)');
    expect(existsSync(join(copy.dir, 'src', 'shared', 'generated', 'form-model.json'))).toBe(true);
  }, 300_000);
});
