// @vitest-environment jsdom
import { withTheme, type FormProps } from '@rjsf/core';
import { cleanup, fireEvent, render } from '@testing-library/react';
import validator from '@rjsf/validator-ajv8';
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
 * Without the app's formContext hooks the theme behaves as a plain RJSF theme: choices
 * from the schema's enum, RJSF's ids and names, descriptions drawn; the cases after the
 * suites check that, and that the app's hooks win where it gives them.
 */
describe('RJSF theme snapshots (@rjsf/snapshot-tests)', () => {
  afterEach(cleanup);
  describe('formTests', () => formTests(Form));
  describe('arrayTests', () => arrayTests(Form));
  describe('objectTests', () => objectTests(Form));
});

describe('the theme reads its props, formContext and schema, not the app', () => {
  afterEach(cleanup);
  const renderForm = (props: Partial<FormProps>) => render(<Form validator={validator} schema={{}} {...props} />);

  test('a standard enum offers its choices, with RJSF\'s ids and names', () => {
    const { container } = renderForm({ schema: { type: 'object', properties: { colour: { type: 'string', enum: ['red', 'green'] } } } });
    const select = container.querySelector('select')!;
    expect([...select.options].map((option) => option.value)).toEqual(['', 'red', 'green']);
    expect(select.id).toBe('root_colour');
    expect(select.name).toBe('root_colour');
  });

  test('an array of choices is a multiple select that answers with the chosen values', () => {
    let data: unknown;
    const { container } = renderForm({
      schema: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, uniqueItems: true },
      onChange: (event) => (data = event.formData),
    });
    const select = container.querySelector('select')!;
    expect(select.multiple).toBe(true);
    select.options[0]!.selected = true;
    select.options[2]!.selected = true;
    fireEvent.change(select);
    expect(data).toEqual(['a', 'c']);
  });

  test('items of an array get ids of their own', () => {
    const { container } = renderForm({ schema: { type: 'array', items: { type: 'string' } }, formData: ['x', 'y', 'z'] });
    const ids = [...container.querySelectorAll('input')].map((input) => input.id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => id.startsWith('root_'))).toBe(true);
  });

  test('a field\'s description is drawn and read with its control', () => {
    const { container } = renderForm({
      schema: { type: 'object', properties: { nick: { type: 'string', title: 'Nickname', description: 'What friends call you' } } },
    });
    const description = container.querySelector('#root_nick-description')!;
    expect(description.textContent).toBe('What friends call you');
    expect(container.querySelector('input')!.getAttribute('aria-describedby')).toContain('root_nick-description');
  });

  test('where the app gives them, its choices, its required rule and answer keys as ids win', () => {
    const { container } = render(
      <ThemedForm
        validator={validator}
        schema={{ type: 'object', properties: { colour: { type: 'string', enum: ['red', 'green'] } } }}
        formContext={{ ...formContext, optionsFor: () => [{ value: 'BLU', label: 'Blue' }], requiredNow: () => true, idsAreKeys: true }}
      />,
    );
    const select = container.querySelector('select')!;
    expect([...select.options].map((option) => option.textContent)).toEqual(['--', 'Blue']);
    expect(select.id).toBe('colour');
    expect(select.getAttribute('aria-required')).toBe('true');
  });
});
