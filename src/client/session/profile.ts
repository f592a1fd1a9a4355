import { mutate, preload } from 'swr';
import { UnauthorizedError } from '../lib/api-errors.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import {
  ADD_ANOTHER_KEY, PROFILE_KEY, SERVICE_KEY, TABS_KEY, fetchAddAnother, fetchProfile, fetchServiceView, fetchTabs, type Profile,
} from './api/session-api.ts';
import { serviceTokenOf } from './service-token.ts';

/**
 * Whether the page's HTML started the profile read (the server does for a visitor with the
 * session cookie). Its answer may already have come back 401 and, as every 401 does,
 * cleared the cookie: the read is still made (the preloaded answer is used), so an ended
 * session goes to /login instead of showing an empty form.
 */
function profilePreloaded(): boolean {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="fetch"]')].some((link) => new URL(link.href).pathname === PROFILE_KEY);
}

/** The last reads of loadProfile by SWR key (start.tsx takes a page the server drew over with them). */
const lastReads: Record<string, unknown> = {};

/**
 * The profile reads as they last came in. SWR answers React's taking over of a page drawn
 * on the server with its cache as it stood before those reads were written into it; they
 * are handed to it as fallback while it does.
 */
export function lastProfileReads(): Record<string, unknown> {
  return { ...lastReads };
}

/**
 * Loads the profile before the form pages render (ProfileGate). Without a session
 * cookie the visitor is anonymous and nothing is asked; a 401 has already sent the
 * browser to /login through the unauthorized handler.
 */
export async function loadProfile(): Promise<Profile | null> {
  const serviceToken = serviceTokenOf();
  if (serviceToken) {
    // a service user: the read-only view of one applicant, without a session
    await mutate(SERVICE_KEY, await fetchServiceView(serviceToken), { revalidate: false });
    return null;
  }
  if (!hasSessionCookie() && !profilePreloaded()) return null;
  try {
    // through SWR's preload: the header's hooks, which mount while this runs, wait for these
    // same requests instead of reading the profile a second time
    const [profile, addAnother, tabs] = await Promise.all([
      preload(PROFILE_KEY, fetchProfile), preload(ADD_ANOTHER_KEY, fetchAddAnother), preload(TABS_KEY, fetchTabs),
    ]);
    await Promise.all([
      mutate(ADD_ANOTHER_KEY, addAnother, { revalidate: false }),
      mutate(TABS_KEY, tabs, { revalidate: false }),
    ]);
    await mutate(PROFILE_KEY, profile, { revalidate: false });
    Object.assign(lastReads, { [PROFILE_KEY]: profile, [ADD_ANOTHER_KEY]: addAnother, [TABS_KEY]: tabs });
    return profile;
  } catch (error) {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  }
}
