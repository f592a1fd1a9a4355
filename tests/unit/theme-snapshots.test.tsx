// @vitest-environment jsdom
import { withTheme, type FormProps } from '@rjsf/core';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FormContext } from '../../src/client/form-theme/form-context.ts';
import { fields, templates, widgets } from '../../src/client/form-theme/index.ts';

/**
 * RJSF's own theme snapshot suites (@rjsf/snapshot-tests: formTests, arrayTests,
 * objectTests) against our Blueprint theme, composed into a Form the way RJSF's theme
 * packages compose theirs. The suites render with @testing-library/react and match
 * `asFragment()` snapshots (tests/unit/__snapshots__/).
 *
 * The package is written for vitest with `globals: true`: its modules call describe, test,
 * beforeAll, expect and vi (a `vi.mock` of @rjsf/utils's getTestIds) as globals. Our config has no
 * globals, so they are put on globalThis here and the package is imported afterwards.
 */
Object.assign(globalThis, { describe, test, beforeAll, expect, vi });
const { arrayTests, formTests, objectTests } = await import('@rjsf/snapshot-tests');

/** What the app's PartForm gives every widget (src/client/form-theme/form-context.ts), with nothing hidden or answered. */
const formContext: FormContext = {
  hidden: new Set(),
  answers: {},
  loggedIn: false,
  serviceView: false,
  reportLocalError: () => undefined,
  localErrors: {},
};

const ThemedForm = withTheme({ widgets, fields, templates });

/** The themed Form with our formContext; a suite's own formContext, if it passes one, wins. */
function Form(props: FormProps) {
  return <ThemedForm formContext={formContext} {...props} />;
}

/**
 * All 136 cases of the three suites run; none is excluded (every widget of the theme
 * renders outside the app with this formContext). gridTests is not run: it needs a
 * theme's grid column options, and our theme has no LayoutGridField layout.
 * The snapshots record what the theme renders today, gaps included (the select and radio
 * widgets take their options from the app's form model by answer key, not from the
 * schema's enum; widgets use the property name, not RJSF's id or htmlName, as id and name).
 */
describe('RJSF theme snapshots (@rjsf/snapshot-tests)', () => {
  afterEach(cleanup);
  describe('formTests', () => formTests(Form));
  describe('arrayTests', () => arrayTests(Form));
  describe('objectTests', () => objectTests(Form));
});
