import { TextArea } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import a11y from '../../../../schemas/text/accessibility.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { ariaRequired, describedBy } from '../form-context.ts';

const DEFAULT_LIMIT = 1500; // spec section 9
const DEFAULT_ROWS = 6;

/** A long answer with 'Character count: n / limit'. Saved on blur, so typing stays local. */
export default function TextareaWidget(props: WidgetProps) {
  const { name, value, schema, uiSchema, rawErrors, readonly, onChange, onBlur } = props;
  const limit = typeof schema.maxLength === 'number' ? schema.maxLength : DEFAULT_LIMIT;
  const [text, setText] = useState<string>(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  return (
    <>
      <TextArea
        id={name}
        name={name}
        value={text}
        rows={Number(props.options.rows ?? DEFAULT_ROWS)}
        maxLength={limit}
        readOnly={readonly}
        fill
        intent={rawErrors?.length ? 'danger' : 'none'}
        aria-invalid={rawErrors?.length ? true : undefined}
        aria-required={ariaRequired(props)}
        aria-describedby={[describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) }), `${name}-count`].filter(Boolean).join(' ')}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => {
          if (text !== (value ?? '')) onChange(text);
          onBlur(name, text);
        }}
      />
      <div className="character-count" id={`${name}-count`}>{fillTemplate(a11y.character_count, { count: text.length, limit })}</div>
    </>
  );
}
