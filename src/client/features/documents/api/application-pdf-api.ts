import useSWR from 'swr';
import { callEndpoint, endpointUrl, type EndpointReply } from '../../../lib/api-client.ts';

export type PdfReply = EndpointReply<'applicationPdf'>;

const PDF_KEY = endpointUrl('applicationPdf');
const PENDING_POLL_MS = 1000; // spec section 9
const SETTLED_POLL_MS = 600_000;

/** A failed check reads as FAILED, as the spec's polling has it. */
const fetchPdf = (refresh: boolean): Promise<PdfReply> => callEndpoint('applicationPdf', { query: refresh ? { refresh: '1' } : {} })
  .catch((): PdfReply => ({ status: 'FAILED' }));

/**
 * The PDF copy of the application (spec "PDF download"): polled every second while it is
 * being made and every ten minutes after; `refresh` asks for a new one.
 */
export function useApplicationPdf() {
  const { data, mutate } = useSWR(PDF_KEY, () => fetchPdf(false), {
    refreshInterval: (latest) => (!latest || latest.status === 'UNPROCESSED' || latest.status === 'IN_PROGRESS' ? PENDING_POLL_MS : SETTLED_POLL_MS),
  });
  const refresh = (): Promise<PdfReply | undefined> => mutate(fetchPdf(true), { revalidate: false });
  return { pdf: data, refresh };
}
