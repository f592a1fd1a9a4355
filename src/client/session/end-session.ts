import { mutate } from 'swr';
import { endSessionOnServer } from './api/session-api.ts';
import { forgetSessionCookie } from '../lib/session-cookie.ts';
import { resetLocalState } from './client-snapshot.ts';
import { saveQueue } from './save-queue.ts';

/** Forgets everything cached about the applicant (after logout or a 401). */
export async function clearClientData(): Promise<void> {
  forgetSessionCookie();
  resetLocalState();
  saveQueue.setOwner(null); // what is unsaved stays in this tab's storage for the next login
  await mutate(() => true, undefined, { revalidate: false });
}

type BeforeLogout = () => Promise<unknown>;
const beforeLogout = new Set<BeforeLogout>();

/** Work to finish before a logout (saving what is unsaved, spec-decisions 3). */
export function registerBeforeLogout(hook: BeforeLogout): () => void {
  beforeLogout.add(hook);
  return () => beforeLogout.delete(hook);
}

/** Ends the session on the server, then forgets it here. Unsaved answers are saved first (up to 5 s). */
export async function logout(): Promise<void> {
  const hooks = Promise.allSettled([...beforeLogout].map((hook) => hook()));
  await Promise.race([hooks, new Promise((resolve) => setTimeout(resolve, 5000))]);
  await endSessionOnServer();
  await clearClientData();
}
