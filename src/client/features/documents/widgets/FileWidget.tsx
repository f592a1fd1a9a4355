import { Button, Dialog, DialogBody, DialogFooter, FileInput, Icon, Spinner } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { useCallback, useEffect, useRef, useState } from 'react';
import a11y from '../../../../../schemas/text/accessibility.json';
import { documentRules, fileProblem, formatFileSize } from '../../../../shared/documents/file-rules.ts';
import { fillTemplate } from '../../../../shared/text/fill-template.ts';
import { deleteDocument, uploadDocument } from '../../../session/upload-document.ts';
import { messageOf } from '../../../lib/api-errors.ts';
import { DialogError } from '../../../lib/DialogError.tsx';
import { focusOnOpen } from '../../../lib/overlay-focus.ts';
import { useToast } from '../../../lib/toasts.tsx';
import type { DocumentPhase } from '../../../session/documents-store.ts';
import { useApplicationSession, useDocumentState } from '../../../session/session-hooks.ts';
import { ariaRequired, describedBy } from '../../../form-theme/form-context.ts';
import { form } from '../../../../shared/form/form-model-data.ts';

const text = documentRules.messages;
/** What a file must be, said with the control (WCAG 3.3.2) rather than only once a file is refused. */
const rulesText = fillTemplate(text.rules, {
  types: documentRules.extensions.map((extension) => `.${extension}`).join(', '),
  size: formatFileSize(documentRules.max_bytes),
  length: String(documentRules.max_name_length),
});

/** What the question says (and a screen reader hears) in each phase after the applicant acted. */
function phaseText(phase: DocumentPhase, fileName = '', fileSize = 0): string {
  if (phase === 'uploading') return fillTemplate(a11y.upload.uploading, { file: fileName });
  if (phase === 'converting') return fillTemplate(a11y.upload.converting, { file: fileName });
  if (phase === 'done') return fillTemplate(a11y.upload.done, { file: fileName, size: formatFileSize(fileSize) });
  return '';
}

/**
 * A document question (spec "Document upload and conversion"): choose a file, checked here
 * with the spec's messages; it uploads and converts to PDF; then its name and size show,
 * with a delete that asks first (LazyFileWidget asks anonymous visitors to create an account).
 * Each step is announced in a polite live region that is always there; when the control
 * that had the focus goes away (the chooser while uploading, the file once deleted), the
 * focus stays in the question instead of falling back to the top of the page.
 */
export default function FileWidget(props: WidgetProps) {
  const { name, rawErrors, uiSchema } = props;
  const state = useDocumentState(name);
  const session = useApplicationSession();
  const toast = useToast();
  const [problem, setProblem] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const container = useRef<HTMLDivElement>(null);
  const acting = useRef(false);
  const previousPhase = useRef(state.phase);

  /**
   * Keeps the focus in the question when what had it goes away: on the chooser once the
   * question is idle again (a file deleted, an upload refused), else on the question itself.
   * While a dialog is still closing it waits: the dialog's onClosed calls again.
   */
  const placeFocus = useCallback(() => {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && active.closest('.bp6-overlay')) return;
    const lost = !active || active === document.body || !active.isConnected;
    if (!lost && !container.current?.contains(active)) return; // the applicant has moved on
    const chooser = document.getElementById(name);
    if (chooser?.tagName === 'INPUT') chooser.focus();
    else if (lost) container.current?.focus();
  }, [name]);

  useEffect(() => {
    if (previousPhase.current === state.phase) return;
    previousPhase.current = state.phase;
    if (!acting.current) return; // a state loaded with the page is not news
    setAnnouncement(state.phase === 'idle' && !state.error ? a11y.upload.deleted : phaseText(state.phase, state.fileName, state.fileSize));
    placeFocus();
    if (state.phase === 'idle' || state.phase === 'done') acting.current = false;
  }, [state.phase, state.error, state.fileName, state.fileSize, placeFocus]);

  const shownProblem = problem ?? state.error;
  const busy = state.phase === 'uploading' || state.phase === 'converting';
  const onChoose = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    const local = files.length > 1 ? text.one_file : fileProblem(file);
    setProblem(local);
    if (local) return;
    acting.current = true;
    const result = await uploadDocument(session, name, file);
    if (!result.ok) toast({ severity: 'error', title: fillTemplate(text.upload_error, { key: form.fields[name]?.title ?? name }), message: result.message, key: `upload-${name}` });
  };

  // the dialog stays open until the file is gone: a failure is said in it (spec section 8)
  const [deleteError, setDeleteError] = useState<string>();
  const closeConfirm = () => {
    setConfirming(false);
    setDeleteError(undefined);
  };
  const onDelete = async () => {
    setDeleteError(undefined);
    acting.current = true;
    try {
      await deleteDocument(session, name);
      closeConfirm();
    } catch (error) {
      acting.current = false;
      setDeleteError(messageOf(error));
    }
  };

  return (
    // a named group: the focus rests here (with a ring) while the chooser is away during an upload
    <div className="file-question" data-document-phase={state.phase} ref={container} tabIndex={-1} aria-busy={busy || undefined}
      role="group" aria-labelledby={`${name}-label`}>
      {state.phase === 'idle' && (
        <FileInput
          text={text.choose}
          buttonText={text.browse}
          inputProps={{
            id: name,
            name,
            accept: documentRules.extensions.map((extension) => `.${extension}`).join(','),
            'aria-required': ariaRequired(props),
            'aria-invalid': shownProblem || rawErrors?.length ? true : undefined,
            'aria-describedby': [describedBy(name, { help: Boolean(uiSchema?.['ui:help']), errors: Boolean(rawErrors?.length) }), `${name}-file-rules`, shownProblem ? `${name}-file-problem` : ''].filter(Boolean).join(' '),
          }}
          onInputChange={(event) => {
            const input = event.currentTarget;
            void onChoose(input.files).finally(() => (input.value = ''));
          }}
        />
      )}
      {state.phase === 'idle' && <p className="file-rules" id={`${name}-file-rules`}>{rulesText}</p>}
      {busy && (
        <div className="file-progress">
          <Spinner size={20} aria-hidden /> <span>{phaseText(state.phase, state.fileName)}</span>
        </div>
      )}
      {state.phase === 'done' && (
        <div className="file-done">
          <Icon icon="document" aria-hidden />
          <span className="file-name">{state.fileName}</span>
          <span className="file-size">{formatFileSize(state.fileSize ?? 0)}</span>
          <Button variant="outlined" intent="danger" icon="trash" text={text.delete} onClick={() => setConfirming(true)} aria-label={`${text.delete} ${state.fileName}`} />
        </div>
      )}
      {shownProblem && state.phase === 'idle' && (
        <div className="field-error-block" role="alert">
          <Icon icon="error" size={14} aria-hidden />
          <p className="field-error" id={`${name}-file-problem`}>{shownProblem}</p>
        </div>
      )}
      <div className="visually-hidden" role="status" aria-live="polite" data-upload-announcement>{announcement}</div>
      <Dialog isOpen={confirming} onClose={closeConfirm} title={text.delete_title} role="alertdialog" className="app-dialog app-dialog-xs"
        aria-describedby={`${name}-delete-text`} onOpening={focusOnOpen('.file-delete-cancel')}
        onClosed={() => requestAnimationFrame(placeFocus)}>
        <DialogBody><p id={`${name}-delete-text`}>{text.delete_confirm}</p><DialogError message={deleteError} /></DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={text.cancel} onClick={closeConfirm} className="file-delete-cancel" />
            <Button intent="danger" text={text.delete} onClick={() => void onDelete()} />
          </>
        )} />
      </Dialog>
    </div>
  );
}
