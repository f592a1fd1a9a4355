import { Button } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import documentsText from '../../../../schemas/documents.json';
import { useToast } from '../../lib/toasts.tsx';
import { useApplicationPdf } from './api/application-pdf-api.ts';

const text = documentsText.messages;

/**
 * The PDF copy of the application (spec "PDF download"): the button asks for a fresh
 * copy, and downloads it when it is ready.
 */
export function PdfDownload() {
  const toast = useToast();
  const wanted = useRef(false);
  const [busy, setBusy] = useState(false);
  const { pdf: data, refresh } = useApplicationPdf();

  useEffect(() => {
    if (!wanted.current || !data) return;
    if (data.status === 'COMPLETED' && data.url) {
      wanted.current = false;
      setBusy(false);
      window.location.assign(data.url);
    } else if (data.status === 'FAILED') {
      wanted.current = false;
      setBusy(false);
      toast({ severity: 'error', message: text.download_error, key: 'pdf' });
    }
  }, [data, toast]);

  const onClick = async () => {
    wanted.current = true;
    setBusy(true);
    await refresh();
  };

  return (
    <div className="pdf-download">
      <Button icon="download" intent="primary" variant="outlined" text={busy ? text.preparing_pdf : text.download_pdf} loading={busy} onClick={() => void onClick()} />
    </div>
  );
}
