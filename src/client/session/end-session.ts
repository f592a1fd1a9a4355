import { mutate } from 'swr';
import { endSessionOnServer } from './api/session-api.ts';
import { forgetSessionCookie } from '../lib/session-cookie.ts';
import { markSignedOut } from './signed-in.ts';

/**
 * Forgets everything cached about the applicant (after logout or a 401). The frame then
 * sees another identity and replaces the application session; what was unsaved stays in
 * this tab's storage for the next login.
 */
export async function clearClientData(): Promise<void> {
  markSignedOut(); // first: nothing that runs only while signed in may outlive the session
  forgetSessionCookie();
  await mutate(() => true, undefined, { revalidate: false });
}

type BeforeLogout = () => Promise<unknown>;
const beforeLogout = new Set<BeforeLogout>();

/** Work to finish before a logout (saving what is unsaved, spec-decisions 3). */
export function registerBeforeLogout(hook: BeforeLogout): () => void {
  beforeLogout.add(hook);
  return () => void beforeLogout.delete(hook);
}

/** Ends the session on the server, then forgets it here. Unsaved answers are saved first (up to 5 s). */
export async function logout(): Promise<void> {
  const hooks = Promise.allSettled([...beforeLogout].map((hook) => hook()));
  await Promise.race([hooks, new Promise((resolve) => setTimeout(resolve, 5000))]);
  await endSessionOnServer();
  await clearClientData();
}
