// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import TextareaWidget from '../../src/client/form-theme/widgets/TextareaWidget.tsx';

function props(overrides: Partial<WidgetProps> = {}): WidgetProps {
  return {
    id: 'essay', name: 'essay', value: '', label: 'Essay', schema: { type: 'string' }, uiSchema: {}, options: {},
    required: false, disabled: false, readonly: false, autofocus: false, rawErrors: [],
    onChange: vi.fn(), onBlur: vi.fn(), onFocus: vi.fn(), registry: {} as never,
    ...overrides,
  } as WidgetProps;
}

describe('the text area widget (spec "Text area")', () => {
  afterEach(cleanup);

  it('counts characters against the default limit of 1500, in 6 rows', () => {
    render(<TextareaWidget {...props({ value: 'Hello' })} />);
    expect(screen.getByText('Character count: 5 / 1500')).toBeTruthy();
    const area = screen.getByRole('textbox') as HTMLTextAreaElement;
    expect(area.rows).toBe(6);
    expect(area.maxLength).toBe(1500);
    expect(area.getAttribute('aria-describedby')).toContain('essay-count');
  });

  it('keeps typing local and saves on blur, once', () => {
    const onChange = vi.fn();
    const { rerender } = render(<TextareaWidget {...props({ onChange, schema: { type: 'string', maxLength: 200 } })} />);
    const area = screen.getByRole('textbox');
    fireEvent.change(area, { target: { value: 'A long answer' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Character count: 13 / 200')).toBeTruthy();
    fireEvent.blur(area);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('A long answer');
    rerender(<TextareaWidget {...props({ onChange, value: 'A long answer', schema: { type: 'string', maxLength: 200 } })} />);
    fireEvent.blur(area); // nothing changed since: nothing to save
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
