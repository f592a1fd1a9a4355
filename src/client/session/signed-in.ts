import { hasSessionCookie } from '../lib/session-cookie.ts';
import { createStore, useStore } from './store.ts';

/**
 * Whether this tab holds a login: true after a login (or at load with the session cookie),
 * false as soon as the session ends, however it ends (a chosen logout, the inactivity
 * logout, any 401). What runs only for a signed-in applicant (the inactivity guard) follows
 * this, not the cached profile, which outlives the session on screen.
 */
const signedIn = createStore<boolean>(typeof document !== 'undefined' && hasSessionCookie());

export function markSignedIn(): void {
  if (!signedIn.get()) signedIn.set(true);
}

export function markSignedOut(): void {
  if (signedIn.get()) signedIn.set(false);
}

export function useSignedIn(): boolean {
  return useStore(signedIn);
}
