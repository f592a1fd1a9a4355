// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyTextWidget } from '../../src/client/features/lookups/lazy-text-widget.tsx';
import SchoolSearchWidget from '../../src/client/features/lookups/SchoolSearchWidget.tsx';
import type { SchoolValues } from '../../src/client/features/lookups/school-parts.ts';

// the look-up's requests are not this test's subject: no school is ever suggested
vi.mock('../../src/client/features/lookups/api/lookup-api.ts', () => ({
  findSuggestions: vi.fn(async () => []),
  findRecord: vi.fn(async () => { throw new Error('not asked'); }),
}));

/** The school search as a page uses it, its code held back until `arrive()`. */
function lazySearch() {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const Widget = lazyTextWidget(async () => {
    await arrived;
    return { default: SchoolSearchWidget };
  });
  return { Widget, arrive: () => act(async () => arrive()) };
}

function props(value: string, fill: (values: SchoolValues) => void): WidgetProps {
  return {
    id: 'college_name', name: 'college_name', value, label: 'College', schema: { type: 'string', maxLength: 100 }, uiSchema: {},
    options: { school: { category: 'college', fill, hasAnswers: () => Boolean(value) } },
    required: false, disabled: false, readonly: false, autofocus: false, rawErrors: [],
    onChange: vi.fn(), onBlur: vi.fn(), onFocus: vi.fn(), registry: {} as never,
  } as WidgetProps;
}

// A drawn section can be taken over after another section loaded the look-up: the plain field
// it was drawn as is replaced at once, while keys typed into it are still on their way to the
// answer (typed-before-start.ts hands them over in the same moment).
describe('the school search replacing the plain field it was drawn as', () => {
  afterEach(cleanup);

  it('starts from the text in the field, not from an answer that has not caught up with it', async () => {
    const fill = vi.fn();
    const { Widget, arrive } = lazySearch();
    const { rerender } = render(<Widget {...props('', fill)} />);
    const plain = document.getElementById('college_name') as HTMLInputElement;
    plain.focus();
    plain.value = 'S'; // typed while React did not listen
    await arrive();
    const search = screen.getByRole('combobox') as HTMLInputElement;
    expect(search).not.toBe(plain);
    expect(search.value).toBe('S');
    expect(document.activeElement).toBe(search);
    fireEvent.change(search, { target: { value: 'State' } });
    // the answer the plain field gave arrives after the keys typed since
    rerender(<Widget {...props('S', fill)} />);
    expect(search.value).toBe('State');
    fireEvent.blur(search);
    expect(fill).toHaveBeenCalledWith({ name: 'State' });
  });

  it('shows an answer from elsewhere when nothing is being typed into it', async () => {
    const fill = vi.fn();
    const { Widget, arrive } = lazySearch();
    const { rerender } = render(<Widget {...props('Central', fill)} />);
    await arrive();
    const search = screen.getByRole('combobox') as HTMLInputElement;
    expect(search.value).toBe('Central');
    rerender(<Widget {...props('State College', fill)} />);
    expect(search.value).toBe('State College');
    // typed and left: the typed name is the answer, and a later answer shows again
    fireEvent.change(search, { target: { value: 'State U' } });
    fireEvent.blur(search);
    expect(fill).toHaveBeenCalledWith({ name: 'State U' });
    rerender(<Widget {...props('Other College', fill)} />);
    expect(search.value).toBe('Other College');
    expect(fill).toHaveBeenCalledTimes(1);
  });
});
