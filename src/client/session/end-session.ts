import { mutate } from 'swr';
import { apiRequest } from '../lib/api-client.ts';
import { forgetSessionCookie } from '../lib/session-cookie.ts';
import { resetLocalState } from './client-snapshot.ts';

/** Forgets everything cached about the applicant (after logout or a 401). */
export async function clearClientData(): Promise<void> {
  forgetSessionCookie();
  resetLocalState();
  await mutate(() => true, undefined, { revalidate: false });
}

/** Ends the session on the server, then forgets it here. */
export async function logout(): Promise<void> {
  await apiRequest('/api/logout');
  await clearClientData();
}
