import { Button } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import useSWR from 'swr';
import documentsText from '../../../../schemas/documents.json';
import { apiRequest } from '../../lib/api-client.ts';
import { useToast } from '../../lib/toasts.tsx';

interface PdfReply {
  status: 'UNPROCESSED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  url?: string;
  message?: string;
}

const PENDING_POLL_MS = 1000; // spec section 9
const SETTLED_POLL_MS = 600_000;
const text = documentsText.messages;

/**
 * The PDF copy of the application (spec "PDF download"): GET /api/pdf prepares it,
 * polled every second while it is being made and every ten minutes after; the button
 * asks again, and downloads when it is ready.
 */
export function PdfDownload() {
  const toast = useToast();
  const wanted = useRef(false);
  const [busy, setBusy] = useState(false);
  const { data, mutate } = useSWR<PdfReply>('/api/pdf', {
    fetcher: (uri: string) => apiRequest<PdfReply>(uri).catch((): PdfReply => ({ status: 'FAILED' })),
    refreshInterval: (latest) => (!latest || latest.status === 'UNPROCESSED' || latest.status === 'IN_PROGRESS' ? PENDING_POLL_MS : SETTLED_POLL_MS),
  });

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
    await mutate(apiRequest<PdfReply>('/api/pdf?refresh=1').catch((): PdfReply => ({ status: 'FAILED' })), { revalidate: false });
  };

  return (
    <div className="pdf-download">
      <Button icon="download" intent="primary" variant="outlined" text={busy ? text.preparing_pdf : text.download_pdf} loading={busy} onClick={() => void onClick()} />
    </div>
  );
}
