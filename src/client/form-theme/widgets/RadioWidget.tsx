import { Button, Radio, RadioGroup } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import a11y from '../../../../schemas/text/accessibility.json';
import { ariaRequired, choicesOf, describedByOf, fieldId } from '../form-context.ts';
import { useCommittedChoice } from './committed-choice.ts';

/**
 * One choice among a few; an optional one can be taken back. The field template supplies the
 * fieldset and its legend. The arrow keys choose as they move; where the form's owner holds
 * such a choice (one that would remove answers), it is the answer once the group is left, or
 * with Enter or Space (committed-choice.ts).
 */
export default function RadioWidget(props: WidgetProps) {
  const { value, options, rawErrors, readonly, disabled, onChange } = props;
  const id = fieldId(props);
  const items = choicesOf(props);
  const choice = useCommittedChoice(props);
  const clearable = !ariaRequired(props) && !readonly && !disabled && value !== undefined && value !== '';
  return (
    <>
    <RadioGroup
      name={props.htmlName || id}
      selectedValue={(choice.shown ?? '') as string}
      inline={Boolean(options.inline)}
      disabled={disabled || readonly}
      onChange={(event) => choice.change(event.currentTarget.value)}
      className={rawErrors?.length ? 'radio-invalid' : undefined}
    >
      {items.map((item, index) => (
        <Radio
          key={item.value}
          id={index === 0 ? id : `${id}-${item.value}`}
          value={item.value}
          label={item.label}
          aria-describedby={describedByOf(props)}
          aria-invalid={rawErrors?.length ? true : undefined}
          onKeyDown={choice.onKeyDown}
          onKeyUp={choice.onKeyUp}
          onPointerDown={choice.onPointerDown}
          onBlur={choice.onBlur}
        />
      ))}
    </RadioGroup>
    {clearable && <Button className="radio-clear" variant="minimal" size="small" icon="cross" text={a11y.clear_choice} onClick={() => {
      // the button goes with the answer: the focus moves to the question's first choice first, not to the page
      document.getElementById(id)?.focus();
      onChange('');
    }} />}
    </>
  );
}
