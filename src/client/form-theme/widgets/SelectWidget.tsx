import { DoubleCaretVerticalIcon } from '@blueprintjs/icons';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import a11y from '../../../../schemas/text/accessibility.json';
import { ariaRequired, choicesOf, describedByOf, fieldId, type ChoiceItem } from '../form-context.ts';
import { useCommittedChoice } from './committed-choice.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

/**
 * The options as markup, set in one go: the browser's parser makes the country list's 244
 * options in a fraction of the time React takes to create and track them one by one, on
 * the first visit. React still owns the select and its value.
 */
function optionsHtml(items: ChoiceItem[], blank: boolean, chosen: ReadonlySet<string>): { __html: string } {
  let html = blank ? `<option value="">${escapeHtml(a11y.blank_option)}</option>` : '';
  for (const item of items) html += `<option value="${escapeHtml(item.value)}"${chosen.has(item.value) ? ' selected' : ''}>${escapeHtml(item.label)}</option>`;
  return { __html: html };
}

/**
 * A list answer: the blank choice ('--', spec "Reusable inputs") first, then the choices
 * that apply now (the form owner's, narrowed by other answers, else the schema's enum);
 * several at once for an array of choices (`multiple`: a list box, as Blueprint's select
 * takes one). `describedBy` replaces the ids of the help and messages (a month/year pair
 * shares one). Blueprint's HTMLSelect markup, without its component, which takes options
 * only as React children. A list other questions depend on answers only the choice committed,
 * not each one its arrows or type-ahead pass (committed-choice.ts).
 */
export default function SelectWidget(props: WidgetProps & { describedBy?: string }) {
  const { value, uiSchema, rawErrors, readonly, disabled, multiple, onChange, onBlur } = props;
  const id = fieldId(props);
  const items = choicesOf(props);
  // the choice as first drawn is marked in the markup, so a page drawn on the server shows it
  // before any script; kept from then on, so a new choice does not make the options again
  const [drawn] = useState(() => new Set(([] as unknown[]).concat(value ?? []).map(String)));
  const choice = useCommittedChoice(props);
  const common = {
    id,
    name: props.htmlName || id,
    disabled: disabled || readonly,
    autoComplete: (uiSchema?.['ui:autocomplete'] as string | undefined) ?? 'off',
    'aria-invalid': rawErrors?.length ? true : undefined,
    'aria-required': ariaRequired(props),
    'aria-describedby': 'describedBy' in props ? props.describedBy : describedByOf(props),
  };
  if (multiple) {
    const chosen = (select: HTMLSelectElement) => [...select.selectedOptions].map((option) => option.value);
    return (
      <select
        {...common}
        multiple
        className={`bp6-input select-multiple${rawErrors?.length ? ' field-invalid' : ''}`}
        value={((value ?? []) as unknown[]).map(String)}
        onChange={(event) => onChange(chosen(event.currentTarget))}
        onBlur={(event) => onBlur(id, chosen(event.currentTarget))}
        dangerouslySetInnerHTML={optionsHtml(items, false, drawn)}
      />
    );
  }
  return (
    <div className={`bp6-html-select${common.disabled ? ' bp6-disabled' : ''} bp6-fill${rawErrors?.length ? ' field-invalid' : ''}`}>
      <select
        {...common}
        value={(choice.shown ?? '') as string}
        onChange={(event) => choice.change(event.currentTarget.value)}
        onKeyDown={choice.onKeyDown}
        onKeyUp={choice.onKeyUp}
        onPointerDown={choice.onPointerDown}
        onBlur={(event) => {
          choice.onBlur(event);
          onBlur(id, event.currentTarget.value);
        }}
        dangerouslySetInnerHTML={optionsHtml(items, true, drawn)}
      />
      {/* decoration: without a title Blueprint hides it from screen readers (the list says it is one) */}
      <DoubleCaretVerticalIcon />
    </div>
  );
}
