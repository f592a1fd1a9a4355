import { Button, type ButtonProps } from '@blueprintjs/core';
import type { Ref } from 'react';
import frame from '../../../../schemas/text/frame.json';

/** The header's account button, the same before and after the popover behind it has loaded (which adds its own classes). */
export function AccountButton({ className, ...props }: ButtonProps & { ref?: Ref<HTMLButtonElement> }) {
  return (
    <Button
      icon="user" endIcon="caret-down" text={frame.header.account_button} variant="outlined"
      {...props} className={className ? `account-button ${className}` : 'account-button'}
    />
  );
}
