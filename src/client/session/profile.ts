import { mutate } from 'swr';
import { UnauthorizedError } from '../lib/api-errors.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import {
  ADD_ANOTHER_KEY, PROFILE_KEY, SERVICE_KEY, TABS_KEY, fetchAddAnother, fetchProfile, fetchServiceView, fetchTabs, type Profile,
} from './api/session-api.ts';

/**
 * Loads the profile before the form pages render (the route loader). Without a session
 * cookie the visitor is anonymous and nothing is asked; a 401 has already sent the
 * browser to /login through the unauthorized handler.
 */
export async function loadProfile(): Promise<Profile | null> {
  const serviceToken = new URLSearchParams(window.location.search).get('service_token');
  if (serviceToken) {
    // a service user: the read-only view of one applicant, without a session
    await mutate(SERVICE_KEY, await fetchServiceView(serviceToken), { revalidate: false });
    return null;
  }
  if (!hasSessionCookie()) return null;
  try {
    const [profile, addAnother, tabs] = await Promise.all([fetchProfile(), fetchAddAnother(), fetchTabs()]);
    await Promise.all([
      mutate(ADD_ANOTHER_KEY, addAnother, { revalidate: false }),
      mutate(TABS_KEY, tabs, { revalidate: false }),
    ]);
    await mutate(PROFILE_KEY, profile, { revalidate: false });
    return profile;
  } catch (error) {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  }
}
