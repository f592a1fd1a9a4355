import { Button, Spinner } from '@blueprintjs/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import documentsText from '../../../../schemas/documents.json';
import { standardMessage } from '../../lib/api-errors.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useApplicationPdf, type PdfReply } from './api/application-pdf-api.ts';

const text = documentsText.messages;

/**
 * The PDF copy of the application (spec "PDF download"): the button asks for a fresh
 * copy, and downloads it when it is ready. While the copy is prepared the button keeps the
 * focus and says so (aria-disabled, not disabled: a disabled button drops the focus to the
 * page), and a status region tells a screen reader when it starts and when it is ready.
 */
export function PdfDownload() {
  const toast = useToast();
  const wanted = useRef(false);
  const [busy, setBusy] = useState(false);
  const [announced, setAnnounced] = useState('');
  const { pdf: data, refresh } = useApplicationPdf();

  // a reply equal to the one before (FAILED again, the same COMPLETED copy) re-renders nothing: the click settles it too
  const settle = useCallback((latest: PdfReply | undefined) => {
    if (!wanted.current || !latest) return;
    if (latest.status === 'COMPLETED' && latest.url) {
      wanted.current = false;
      setBusy(false);
      setAnnounced(text.pdf_ready);
      window.location.assign(latest.url);
    } else if (latest.status === 'FAILED') {
      wanted.current = false;
      setBusy(false);
      setAnnounced('');
      // one toast for both spec rules: FAILED raises the standard error, under the download error's title (docs/spec-deviations.md)
      toast({ severity: 'error', title: text.download_error, message: standardMessage, key: 'pdf' });
    }
  }, [toast]);

  useEffect(() => settle(data), [data, settle]);

  const onClick = async () => {
    if (wanted.current) return; // already on its way
    wanted.current = true;
    setBusy(true);
    setAnnounced(text.preparing_pdf);
    settle(await refresh());
  };

  return (
    <div className="pdf-download">
      <Button intent="primary" variant="outlined" text={busy ? text.preparing_pdf : text.download_pdf}
        icon={busy ? <Spinner size={16} aria-hidden /> : 'download'} aria-disabled={busy || undefined} onClick={() => void onClick()} />
      <span className="visually-hidden" role="status">{announced}</span>
    </div>
  );
}
