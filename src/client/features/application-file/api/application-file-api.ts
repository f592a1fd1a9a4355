import { useEffect } from 'react';
import useSWR from 'swr';
import { callEndpoint, endpointUrl, type EndpointReply } from '../../../lib/api-client.ts';

export type ApplicationFileData = EndpointReply<'applicationFile'>;
export type ApplicationFileItem = ApplicationFileData['items'][number];

export const APPLICATION_FILE_KEY = endpointUrl('applicationFile');
export const fetchApplicationFile = () => callEndpoint('applicationFile');

/**
 * The applicant's application file (GET /api/application-file). Items arrive from others
 * (a counselor's upload, the office), so it is read again when the applicant comes back
 * to the tab or the window, as the session reads the answers again; `refetch` after an
 * action of theirs. Every user of the hook shares one read.
 */
export function useApplicationFile(enabled = true): { file: ApplicationFileData | undefined; refetch: () => void } {
  const { data, mutate } = useSWR(enabled ? APPLICATION_FILE_KEY : null, fetchApplicationFile);
  useEffect(() => {
    if (!enabled) return;
    const again = () => void mutate().catch(() => {});
    const onVisibility = () => document.visibilityState === 'visible' && again();
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [enabled, mutate]);
  return { file: data, refetch: () => void mutate().catch(() => {}) };
}
