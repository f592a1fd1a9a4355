import { Button, Callout, FileInput, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FILE_TEXTS, itemDate, itemTitle } from '../../../shared/file-items/item-words.ts';
import { activeLanguage } from '../../../shared/i18n/active-language.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { messageOf } from '../../lib/api-errors.ts';
import type { ApplicationFileData, ApplicationFileItem } from './api/application-file-api.ts';
import { askCounselor, itemUploadCalls, withdrawCounselorRequest } from './api/counselor-api.ts';
import { ACCEPTED_TYPES, FILE_RULES_TEXT, uploadItemFile, type UploadPhase } from './item-upload.ts';

export interface ItemActionsProps {
  item: ApplicationFileItem;
  file: ApplicationFileData;
  /** read the file again after an action changed it */
  onChanged: () => void;
}

const texts = FILE_TEXTS;
const CLOSED = new Set(['received', 'waived']);

/**
 * What the applicant can do about an item of their file: ask their counselor to send it (a
 * counselor's item), then see where the request stands and withdraw it; upload it themselves
 * (an item they provide). Each outcome is said in a polite live region (an error in an alert),
 * and the focus goes where the next step is.
 */
export function ItemActions({ item, file, onChanged }: ItemActionsProps) {
  if (!file.submitted || item.state === 'waived') return null;
  return (
    <div className="application-file-actions">
      {item.provided_by.includes('counselor') && !CLOSED.has(item.state) && <CounselorRequest item={item} file={file} onChanged={onChanged} />}
      {item.provided_by.includes('applicant') && <OwnUpload item={item} onChanged={onChanged} />}
    </div>
  );
}

function CounselorRequest({ item, file, onChanged }: ItemActionsProps) {
  const id = useId();
  const open = item.request && !item.request.withdrawn && item.state === 'requested' ? item.request : undefined;
  // still requested, but its link ended (a withdrawal makes the item missing): it expired with nothing sent
  const expired = item.request?.withdrawn && item.state === 'requested' ? item.request : undefined;
  const [asking, setAsking] = useState(false);
  const [email, setEmail] = useState(file.counselor_email ?? '');
  const [language, setLanguage] = useState<'en' | 'es'>(activeLanguage.code === 'es' ? 'es' : 'en');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const [error, setError] = useState('');
  const emailInput = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLParagraphElement>(null);
  const askButton = useRef<HTMLButtonElement>(null);
  const moveFocus = useRef<'email' | 'result' | 'ask' | null>(null);

  useEffect(() => {
    const target = moveFocus.current;
    moveFocus.current = null;
    if (target === 'email') emailInput.current?.focus();
    else if (target === 'result') result.current?.focus();
    else if (target === 'ask') askButton.current?.focus();
  });

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await askCounselor(item.id, email.trim(), language);
      setAsking(false);
      setSaid('');
      moveFocus.current = 'result';
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const withdraw = async () => {
    setBusy(true);
    setError('');
    try {
      await withdrawCounselorRequest(item.id);
      setSaid(texts.request_withdrawn);
      moveFocus.current = 'ask';
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="counselor-request">
      {open && !asking ? (
        <>
          <p className="counselor-request-sent" tabIndex={-1} ref={result} role="status">
            {fillTemplate(texts.request_sent, { email: open.email, date: itemDate(open.expires_at, activeLanguage.code) })}
          </p>
          <Button text={texts.withdraw_request} loading={busy} onClick={() => void withdraw()} />
        </>
      ) : asking ? (
        <form className="counselor-request-form" onSubmit={(event) => void send(event)} noValidate>
          <FormGroup label={texts.counselor_address} labelFor={`${id}-email`}>
            <InputGroup id={`${id}-email`} inputRef={emailInput} type="email" autoComplete="email" value={email} required
              onChange={(event) => setEmail(event.target.value)} aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined} />
          </FormGroup>
          <FormGroup label={texts.mail_language} labelFor={`${id}-language`}>
            <HTMLSelect id={`${id}-language`} value={language} onChange={(event) => setLanguage(event.target.value === 'es' ? 'es' : 'en')}
              options={[{ value: 'en', label: texts.language_en }, { value: 'es', label: texts.language_es }]} />
          </FormGroup>
          <Button type="submit" intent="primary" text={texts.send_request} loading={busy} />
        </form>
      ) : (
        <>
          {expired && (
            <p className="counselor-request-expired">
              {fillTemplate(texts.request_expired, { email: expired.email, date: itemDate(expired.expires_at, activeLanguage.code) })}
            </p>
          )}
          <Button ref={askButton} intent="primary" text={texts.ask_counselor}
            onClick={() => {
              setAsking(true);
              setSaid('');
              setError('');
              if (!email && file.counselor_email) setEmail(file.counselor_email);
              moveFocus.current = 'email';
            }} />
        </>
      )}
      {error && <Callout intent="danger" className="counselor-request-error" role="alert" id={`${id}-error`}>{error}</Callout>}
      <p className="visually-hidden" role="status" aria-live="polite">{said}</p>
    </div>
  );
}

function OwnUpload({ item, onChanged }: { item: ApplicationFileItem; onChanged: () => void }) {
  const id = useId();
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const title = itemTitle(item.id);

  const choose = async (files: FileList | null) => {
    const chosen = files?.[0];
    if (!chosen) return;
    setFileName(chosen.name);
    setError('');
    const outcome = await uploadItemFile(chosen, itemUploadCalls(item.id), (next) => {
      setPhase(next);
      setSaid(fillTemplate(texts[next], { file: chosen.name }));
    });
    setPhase(null);
    if (outcome.ok) {
      setSaid(fillTemplate(texts.announce_change, { item: title, state: texts.state_received }));
      onChanged();
    } else {
      setSaid('');
      setError(fillTemplate(texts.upload_failed, { message: outcome.message }));
    }
  };

  return (
    <div className="item-upload">
      <FormGroup label={texts.upload_yourself} labelFor={`${id}-file`} helperText={<span id={`${id}-rules`}>{FILE_RULES_TEXT}</span>}>
        <FileInput inputProps={{ id: `${id}-file`, accept: ACCEPTED_TYPES, 'aria-describedby': error ? `${id}-rules ${id}-error` : `${id}-rules` }}
          disabled={phase !== null} text={phase ? fillTemplate(texts[phase], { file: fileName }) : texts.upload_label}
          buttonText={texts.browse} onInputChange={(event) => {
                const input = event.currentTarget;
                void choose(input.files).finally(() => (input.value = '')); // the same file again is a new choice
              }} />
      </FormGroup>
      {error && <Callout intent="danger" role="alert" id={`${id}-error`}>{error}</Callout>}
      <p className="visually-hidden" role="status" aria-live="polite">{said}</p>
    </div>
  );
}
