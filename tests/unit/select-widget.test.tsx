// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SelectWidget from '../../src/client/form-theme/widgets/SelectWidget.tsx';

const enumOptions = [
  { value: 'AR', label: 'Arts & Sciences <Honors>' },
  { value: 'a"b\'c', label: '"Quoted" <script>alert(1)</script>' },
  { value: 'EN', label: 'Engineering' },
];

function props(overrides: Partial<WidgetProps> = {}): WidgetProps {
  return {
    id: 'major', name: 'major', value: undefined, label: 'Major', schema: { type: 'string' }, uiSchema: {}, options: { enumOptions },
    required: false, disabled: false, readonly: false, autofocus: false, rawErrors: [],
    onChange: vi.fn(), onBlur: vi.fn(), onFocus: vi.fn(), registry: {} as never,
    ...overrides,
  } as WidgetProps;
}

const optionsOf = (select: HTMLSelectElement) => [...select.options].map((option) => [option.value, option.textContent]);

// the options are set as markup, so every label and value must arrive as text, never as markup
describe('the select widget', () => {
  afterEach(cleanup);

  it('shows each choice as written, markup characters included, after the blank choice', () => {
    render(<SelectWidget {...props()} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect(optionsOf(select)).toEqual([['', '--'], ...enumOptions.map((item) => [item.value, item.label])]);
    expect(select.querySelector('script')).toBeNull();
    expect(select.value).toBe('');
  });

  it('selects the saved value and reports the chosen one', () => {
    const onChange = vi.fn();
    render(<SelectWidget {...props({ value: 'a"b\'c', onChange })} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    expect(select.value).toBe('a"b\'c');
    fireEvent.change(select, { target: { value: 'EN' } });
    expect(onChange).toHaveBeenCalledWith('EN');
  });

  it('keeps the value selected when the choices change under it, and shows the blank choice when it is gone', () => {
    const { rerender } = render(<SelectWidget {...props({ value: 'EN' })} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    rerender(<SelectWidget {...props({ value: 'EN', options: { enumOptions: enumOptions.slice(2) } })} />);
    expect(optionsOf(select)).toEqual([['', '--'], ['EN', 'Engineering']]);
    expect(select.value).toBe('EN');
    rerender(<SelectWidget {...props({ value: '', options: { enumOptions: enumOptions.slice(0, 1) } })} />);
    expect(select.value).toBe('');
  });

  it('marks several chosen values in a list box', () => {
    render(<SelectWidget {...props({ multiple: true, value: ['AR', 'EN'], schema: { type: 'array' } })} />);
    const select = screen.getByRole('listbox') as HTMLSelectElement;
    expect([...select.selectedOptions].map((option) => option.value)).toEqual(['AR', 'EN']);
    expect(optionsOf(select)).toEqual(enumOptions.map((item) => [item.value, item.label]));
  });
});

describe('a list other answers depend on', () => {
  afterEach(cleanup);
  const held = (onChange = vi.fn()) => props({ value: 'AR', onChange, registry: { formContext: { holdWhilePassing: () => true } } as never });

  it('answers only the choice committed, not each one the keyboard passes', () => {
    const onChange = vi.fn();
    render(<SelectWidget {...held(onChange)} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    // type-ahead: each key moves the choice as it is pressed
    for (const value of ['a"b\'c', 'EN']) {
      fireEvent.keyDown(select, { key: 'e' });
      fireEvent.change(select, { target: { value } });
      fireEvent.keyUp(select, { key: 'e' });
      expect(select.value).toBe(value);
    }
    expect(onChange).not.toHaveBeenCalled();
    // Enter commits; the list's own popup does not open
    const enter = fireEvent.keyDown(select, { key: 'Enter' });
    expect(enter).toBe(false);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('EN');
  });

  it('commits when left, and not at all when the keys come back to the answer', () => {
    const onChange = vi.fn();
    render(<SelectWidget {...held(onChange)} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: 'EN' } });
    fireEvent.keyDown(select, { key: 'ArrowUp' });
    fireEvent.change(select, { target: { value: 'AR' } });
    fireEvent.blur(select);
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    fireEvent.change(select, { target: { value: 'EN' } });
    fireEvent.blur(select);
    expect(onChange).toHaveBeenCalledWith('EN');
  });

  it('answers a choice made with the pointer at once', () => {
    const onChange = vi.fn();
    render(<SelectWidget {...held(onChange)} />);
    const select = screen.getByRole('combobox') as HTMLSelectElement;
    fireEvent.pointerDown(select);
    fireEvent.change(select, { target: { value: 'EN' } });
    expect(onChange).toHaveBeenCalledWith('EN');
  });
});
