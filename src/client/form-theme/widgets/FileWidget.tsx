import { Callout, FileInput } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { documentRules, fileProblem } from '../../../shared/documents/file-rules.ts';
import { describedBy, type FormContext } from '../form-context.ts';

/**
 * A document question. Anonymous visitors are told to create an account first; the
 * chosen file is checked here with the spec's messages before anything is sent.
 */
export default function FileWidget(props: WidgetProps) {
  const { name, registry, rawErrors, uiSchema } = props;
  const context = registry.formContext as FormContext;
  const [problem, setProblem] = useState<string | undefined>();
  if (!context.loggedIn) {
    return <Callout icon="lock" className="file-logged-out" id={name}>{documentRules.messages.logged_out}</Callout>;
  }
  return (
    <>
      <FileInput
        text={documentRules.messages.choose}
        inputProps={{
          id: name,
          name,
          accept: documentRules.extensions.map((extension) => `.${extension}`).join(','),
          'aria-invalid': problem || rawErrors?.length ? true : undefined,
          'aria-describedby': [describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) }), problem ? `${name}-file-problem` : ''].filter(Boolean).join(' ') || undefined,
        }}
        onInputChange={(event) => {
          const files = event.currentTarget.files;
          const file = files?.[0];
          setProblem(files && files.length > 1 ? documentRules.messages.one_file : file ? fileProblem(file) : undefined);
        }}
      />
      {problem && <p className="field-error" id={`${name}-file-problem`} role="alert">{problem}</p>}
    </>
  );
}
