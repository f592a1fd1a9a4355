import { TextArea } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import a11y from '../../../../schemas/text/accessibility.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { ariaRequired, describedByOf, fieldId } from '../form-context.ts';

const DEFAULT_LIMIT = 1500; // spec section 9
const DEFAULT_ROWS = 6;

/** A long answer with 'Character count: n / limit'. Saved on blur, so typing stays local. */
export default function TextareaWidget(props: WidgetProps) {
  const { value, schema, rawErrors, readonly, onChange, onBlur } = props;
  const id = fieldId(props);
  const limit = typeof schema.maxLength === 'number' ? schema.maxLength : DEFAULT_LIMIT;
  const [text, setText] = useState<string>(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  return (
    <>
      <TextArea
        id={id}
        name={props.htmlName || id}
        value={text}
        rows={Number(props.options.rows ?? DEFAULT_ROWS)}
        maxLength={limit}
        readOnly={readonly}
        fill
        intent={rawErrors?.length ? 'danger' : 'none'}
        aria-invalid={rawErrors?.length ? true : undefined}
        aria-required={ariaRequired(props)}
        aria-describedby={[describedByOf(props), `${id}-count`].filter(Boolean).join(' ')}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => {
          if (text !== (value ?? '')) onChange(text);
          onBlur(id, text);
        }}
      />
      <div className="character-count" id={`${id}-count`}>{fillTemplate(a11y.character_count, { count: text.length, limit })}</div>
    </>
  );
}
