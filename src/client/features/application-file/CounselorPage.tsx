import { Callout, Card, FileInput, FormGroup, Spinner } from '@blueprintjs/core';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { FILE_TEXTS, itemTitle } from '../../../shared/file-items/item-words.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { messageOf } from '../../lib/api-errors.ts';
import { useScreenTitle } from '../../lib/document-title.ts';
import { partner } from '../../lib/partner-text.ts';
import { useLocation } from '../../lib/routing.tsx';
import { counselorApi } from './api/counselor-api.ts';
import { ACCEPTED_TYPES, FILE_RULES_TEXT, uploadItemFile, type UploadPhase } from './item-upload.ts';

const texts = FILE_TEXTS;
type Shown = Awaited<ReturnType<ReturnType<typeof counselorApi>['request']>>;

/**
 * /counselor#<token>: the page a counselor's mail links to. The token stays in the address's
 * fragment, which the browser sends to no server and puts in no Referer; the page's calls carry
 * it in the X-Counselor-Link header. It shows the applicant's name and the item asked for, and
 * takes one upload, through the same pipeline as the applicant's documents.
 */
export function CounselorPage() {
  useScreenTitle(texts.counselor_page_title);
  const { hash } = useLocation();
  const token = hash.replace(/^#/, '');
  const api = useMemo(() => counselorApi(token), [token]);
  const [shown, setShown] = useState<Shown>();
  const [refusal, setRefusal] = useState('');
  const id = useId();
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [fileName, setFileName] = useState('');
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');

  const load = useCallback(async () => {
    try {
      const reply = await api.request();
      setShown(reply);
      setRefusal('');
      return reply;
    } catch (failure) {
      setRefusal(messageOf(failure));
      return undefined;
    }
  }, [api]);
  useEffect(() => {
    if (token) void load();
    else setRefusal(texts.link_invalid);
  }, [token, load]);

  const applicant = shown?.applicant_name ?? '';
  const item = shown ? itemTitle(shown.item) : '';
  const received = shown?.status === 'COMPLETED';
  // this page's own failure, or the last upload's as the server kept it (the page reloaded)
  const failure = error || (shown?.status === 'FAILED' && shown.message && !phase ? fillTemplate(texts.upload_failed, { message: shown.message }) : '');
  // a file converting when the page opens (a reload while it converts): wait for its end
  const converting = shown?.status === 'UNPROCESSED' || shown?.status === 'IN_PROGRESS';
  useEffect(() => {
    if (!converting || phase) return;
    const timer = setTimeout(() => void load(), 2000);
    return () => clearTimeout(timer);
  }, [converting, phase, shown, load]);

  const choose = async (files: FileList | null) => {
    const chosen = files?.[0];
    if (!chosen) return;
    setFileName(chosen.name);
    setError('');
    const outcome = await uploadItemFile(chosen, api, (next) => {
      setPhase(next);
      setSaid(fillTemplate(texts[next], { file: chosen.name }));
    });
    setPhase(null);
    if (outcome.ok) {
      setSaid(fillTemplate(texts.counselor_received, { item, applicant }));
    } else {
      setSaid('');
      setError(fillTemplate(texts.upload_failed, { message: outcome.message }));
    }
    await load();
  };

  return (
    <Card className="account-card counselor-card" elevation={1}>
      <h1 className="page-title" tabIndex={-1}>{shown ? fillTemplate(texts.counselor_title, { applicant }) : texts.counselor_page_title}</h1>
      {refusal ? (
        <Callout intent="danger" role="alert" className="account-callout">{refusal}</Callout>
      ) : !shown ? (
        <Spinner size={24} aria-hidden />
      ) : received ? (
        <Callout intent="success" icon="tick-circle" className="account-callout counselor-received">
          {fillTemplate(texts.counselor_received, { item, applicant })}
        </Callout>
      ) : (
        <>
          <p className="account-intro">{fillTemplate(texts.counselor_intro, { applicant, item, partner: partner.name })}</p>
          <FormGroup label={texts.upload_label} labelFor={`${id}-file`} helperText={<span id={`${id}-rules`}>{FILE_RULES_TEXT}</span>}>
            <FileInput fill inputProps={{ id: `${id}-file`, accept: ACCEPTED_TYPES, 'aria-describedby': failure ? `${id}-rules ${id}-error` : `${id}-rules` }}
              disabled={phase !== null || converting} text={phase || converting ? fillTemplate(texts[phase ?? 'converting'], { file: fileName }) : texts.upload_label}
              buttonText={texts.browse} onInputChange={(event) => {
                const input = event.currentTarget;
                void choose(input.files).finally(() => (input.value = '')); // the same file again is a new choice
              }} />
          </FormGroup>
          {failure && <Callout intent="danger" role="alert" id={`${id}-error`}>{failure}</Callout>}
        </>
      )}
      <p className="visually-hidden" role="status" aria-live="polite">{said}</p>
    </Card>
  );
}
