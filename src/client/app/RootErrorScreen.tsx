import { Button, Icon } from '@blueprintjs/core';
import { useEffect } from 'react';
import errors from '../../../schemas/text/errors.json';
import { useScreenTitle } from '../lib/document-title.ts';

/** Spec section 8: the root error screen. The error itself goes to the console. */
export function RootErrorScreen({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('Unhandled error', error);
  }, [error]);
  useScreenTitle(errors.root_error.title);
  return (
    <main className="root-error" id="main">
      <Icon icon="error" size={48} intent="danger" aria-hidden />
      <h1 className="page-title">{errors.root_error.title}</h1>
      <p>{errors.root_error.body}</p>
      <Button intent="primary" text={errors.root_error.reload} onClick={() => window.location.reload()} />
    </main>
  );
}
