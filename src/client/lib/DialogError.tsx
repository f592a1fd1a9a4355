import { Callout } from '@blueprintjs/core';
import errors from '../../../schemas/text/errors.json';

/**
 * Spec section 8: an unexpected error in a dialog is said in the dialog, under the header
 * "Unexpected Error" with the formatted message, so the dialog stays open to try again or
 * cancel (a toast behind a closed dialog loses what the person was doing).
 */
export function DialogError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Callout intent="danger" role="alert" className="dialog-error" title={errors.modal_error_title} icon="error">
      {message}
    </Callout>
  );
}
