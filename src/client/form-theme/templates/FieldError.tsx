import { Icon } from '@blueprintjs/core';
import a11y from '../../../../schemas/text/accessibility.json';

/**
 * A field's messages, tied to its control by `id` (aria-describedby). Told by an icon and
 * the words "Error:" for screen readers, not by the red colour alone.
 */
export function FieldError({ id, messages }: { id: string; messages: readonly string[] }) {
  if (!messages.length) return null;
  return (
    <div className="field-error-block" id={id}>
      <Icon icon="error" size={14} aria-hidden />
      <span className="visually-hidden">{a11y.error_prefix}</span>
      <div className="field-error">
        {messages.map((message) => <div key={message}>{message}</div>)}
      </div>
    </div>
  );
}
