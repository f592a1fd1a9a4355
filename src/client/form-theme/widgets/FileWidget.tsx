import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, Icon, Spinner } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useState } from 'react';
import { documentRules, fileProblem, formatFileSize } from '../../../shared/documents/file-rules.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { deleteDocument, uploadDocument } from '../../features/documents/upload-document.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useDocumentState } from '../../session/documents-store.ts';
import { describedBy, type FormContext } from '../form-context.ts';

const text = documentRules.messages;

/**
 * A document question (spec "Document upload and conversion"): choose a file, checked here
 * with the spec's messages; it uploads and converts to PDF; then its name and size show,
 * with a delete that asks first. Anonymous visitors are asked to create an account.
 */
export default function FileWidget(props: WidgetProps) {
  const { name, registry, rawErrors, uiSchema } = props;
  const context = registry.formContext as FormContext;
  const state = useDocumentState(name);
  const toast = useToast();
  const [problem, setProblem] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);

  if (!context.loggedIn) {
    return <Callout icon="lock" className="file-logged-out" id={name}>{text.logged_out}</Callout>;
  }

  const shownProblem = problem ?? state.error;
  const onChoose = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const local = files.length > 1 ? text.one_file : fileProblem(file);
    setProblem(local);
    if (local) return;
    const result = await uploadDocument(name, file);
    if (!result.ok) toast({ severity: 'error', title: fillTemplate(text.upload_error, { key: name }), message: result.message, key: `upload-${name}` });
  };

  const onDelete = async () => {
    setConfirming(false);
    try {
      await deleteDocument(name);
    } catch (error) {
      toast({ severity: 'error', message: messageOf(error), key: `delete-${name}` });
    }
  };

  return (
    <div className="file-question" data-document-phase={state.phase}>
      {state.phase === 'idle' && (
        <FileInput
          text={text.choose}
          inputProps={{
            id: name,
            name,
            accept: documentRules.extensions.map((extension) => `.${extension}`).join(','),
            'aria-invalid': shownProblem || rawErrors?.length ? true : undefined,
            'aria-describedby': [describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) }), shownProblem ? `${name}-file-problem` : ''].filter(Boolean).join(' ') || undefined,
          }}
          onInputChange={(event) => {
            const input = event.currentTarget;
            void onChoose(input.files).finally(() => (input.value = ''));
          }}
        />
      )}
      {(state.phase === 'uploading' || state.phase === 'converting') && (
        <div className="file-progress" role="status" aria-live="polite">
          <Spinner size={20} aria-hidden /> <span>{text.uploading}</span> <span className="file-name">{state.fileName}</span>
        </div>
      )}
      {state.phase === 'done' && (
        <div className="file-done" role="status">
          <Icon icon="document" aria-hidden />
          <span className="file-name">{state.fileName}</span>
          <span className="file-size">{formatFileSize(state.fileSize ?? 0)}</span>
          <Button variant="outlined" intent="danger" icon="trash" text={text.delete} onClick={() => setConfirming(true)} aria-label={`${text.delete} ${state.fileName}`} />
        </div>
      )}
      {shownProblem && state.phase === 'idle' && <p className="field-error" id={`${name}-file-problem`} role="alert">{shownProblem}</p>}
      <Dialog isOpen={confirming} onClose={() => setConfirming(false)} title={text.delete_title} role="alertdialog" className="app-dialog app-dialog-xs">
        <DialogBody><p>{text.delete_confirm}</p></DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={text.cancel} onClick={() => setConfirming(false)} />
            <Button intent="danger" text={text.delete} onClick={() => void onDelete()} />
          </>
        )} />
      </Dialog>
    </div>
  );
}
