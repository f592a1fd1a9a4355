import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundaries of eslint.config.js, checked with ESLint itself: a small file that lives
 * (virtually, through lintText's filePath) in one part of src/ and imports another part.
 * The imported files are real, since the rule resolves them.
 */
const cwd = resolve(import.meta.dirname, '..', '..');
const ZONE = 'import-x/no-restricted-paths';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd });
});

async function ruleIds(filePath: string, code: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result!.messages.filter((message) => message.fatal)).toEqual([]); // parsed and linted
  return result!.messages.map((message) => message.ruleId);
}

describe('import boundaries (eslint.config.js)', () => {
  it.each([
    ['shared code importing the client', 'src/shared/text/lint-probe.ts', "import { hasSessionCookie } from '../../client/lib/session-cookie.ts';\nexport const probe = hasSessionCookie;\n"],
    ['shared code importing the server', 'src/shared/text/lint-probe.ts', "import { createProfileService } from '../../server/answers/profile-service.ts';\nexport const probe = createProfileService;\n"],
    ['a route importing a repository', 'src/server/routes/api/lint-probe.ts', "import { listLogins } from '../../db/repositories/login-repository.ts';\nexport const probe = listLogins;\n"],
    ['the form theme importing a feature', 'src/client/form-theme/widgets/lint-probe.ts', "import { readLastActivity } from '../../features/inactivity/idle-clock.ts';\nexport const probe = readLastActivity;\n"],
    ['the form theme importing a session store', 'src/client/form-theme/widgets/lint-probe.ts', "import { createAnswersStore } from '../../session/answers-store.ts';\nexport const probe = createAnswersStore;\n"],
    ['the form theme importing the form model', 'src/client/form-theme/widgets/lint-probe.ts', "import { form } from '../../../shared/form/form-model-data.ts';\nexport const probe = form;\n"],
    ['the client importing server code', 'src/client/lib/lint-probe.ts', "import { HttpError } from '../../server/lib/http-error.ts';\nexport const probe = HttpError;\n"],
    ['the server importing client code', 'src/server/lib/lint-probe.ts', "import { hasSessionCookie } from '../../client/lib/session-cookie.ts';\nexport const probe = hasSessionCookie;\n"],
    ['a feature importing another feature', 'src/client/features/documents/lint-probe.ts', "import { readLastActivity } from '../inactivity/idle-clock.ts';\nexport const probe = readLastActivity;\n"],
    ['a feature importing the app', 'src/client/features/form/lint-probe.ts', "import { FormFrame } from '../../app/FormFrame.tsx';\nexport const probe = FormFrame;\n"],
    ['the session importing a feature', 'src/client/session/lint-probe.ts', "import { readLastActivity } from '../features/inactivity/idle-clock.ts';\nexport const probe = readLastActivity;\n"],
  ])('reports %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toEqual([ZONE]);
  });

  it.each([
    ['shared code importing shared code', 'src/shared/text/lint-probe.ts', "import { fillTemplate } from './fill-template.ts';\nexport const probe = fillTemplate;\n"],
    ['a route importing a service', 'src/server/routes/api/lint-probe.ts', "import { createProfileService } from '../../answers/profile-service.ts';\nexport const probe = createProfileService;\n"],
    ['a service importing a repository', 'src/server/answers/lint-probe.ts', "import { listLogins } from '../db/repositories/login-repository.ts';\nexport const probe = listLogins;\n"],
    ['a feature widget importing the theme and a session store', 'src/client/features/lookups/lint-probe.ts', "import { useApplicationSession } from '../../session/session-hooks.ts';\nimport { describedBy } from '../../form-theme/form-context.ts';\nexport const probe = [useApplicationSession, describedBy];\n"],
    ['the theme importing shared code other than the form model', 'src/client/form-theme/widgets/lint-probe.ts', "import { fillTemplate } from '../../../shared/text/fill-template.ts';\nexport const probe = fillTemplate;\n"],
    ['a feature importing shared code', 'src/client/features/form/lint-probe.ts', "import { fillTemplate } from '../../../shared/text/fill-template.ts';\nexport const probe = fillTemplate;\n"],
    ['a feature importing its own files', 'src/client/features/inactivity/lint-probe.ts', "import { readLastActivity } from './idle-clock.ts';\nexport const probe = readLastActivity;\n"],
    ['the app importing a feature', 'src/client/app/lint-probe.ts', "import { readLastActivity } from '../features/inactivity/idle-clock.ts';\nexport const probe = readLastActivity;\n"],
  ])('allows %s', async (_name, filePath, code) => {
    expect(await ruleIds(filePath, code)).toEqual([]);
  });
});

describe('API addresses in the client (eslint.config.js)', () => {
  it.each([
    ['a string', "export const probe = '/api/profile';\n"],
    ['a template', "const token = 'x';\nexport const probe = `/public/tmp?token=${token}`;\n"],
    ['a look-up address', "export const probe = '/lookup/find?category=address';\n"],
  ])('reports an API address written as %s in a feature', async (_name, code) => {
    expect(await ruleIds('src/client/features/form/lint-probe.ts', code)).toEqual(['no-restricted-syntax']);
  });

  it('allows a call by endpoint name, and page paths', async () => {
    const code = "import { endpointUrl } from '../../lib/api-client.ts';\nexport const probe = [endpointUrl('profile'), '/about', '/completion'];\n";
    expect(await ruleIds('src/client/features/form/lint-probe.ts', code)).toEqual([]);
  });
});

describe('import cycles and hooks (eslint.config.js)', () => {
  it('reports a cycle of two files, and npm run lint leaves those fixtures alone', async () => {
    const fixtures = ['tests/fixtures/lint/cycle-a.ts', 'tests/fixtures/lint/cycle-b.ts'];
    for (const file of fixtures) expect(await eslint.isPathIgnored(file)).toBe(true);
    const results = await new ESLint({ cwd, ignore: false }).lintFiles(fixtures);
    for (const result of results) expect(result.messages.map((message) => message.ruleId)).toEqual(['import-x/no-cycle']);
  });

  it('reports a hook called conditionally in the client', async () => {
    const code = "import { useState } from 'react';\nexport function Probe({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n";
    expect(await ruleIds('src/client/features/form/LintProbe.tsx', code)).toEqual(['react-hooks/rules-of-hooks']);
  });
});
