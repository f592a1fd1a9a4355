import { mutate } from 'swr';
import { apiRequest } from '../lib/api-client.ts';
import { UnauthorizedError } from '../lib/api-errors.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';

/** The profile response of spec section 3. */
export interface Profile {
  answer: Record<string, string>;
  document_answer: Record<string, { file_name: string; file_size: number }>;
  web_status: { web_status: string; created_at?: string }[];
  last_page: string | null;
  username: string;
  successful_login: { login_at: string }[];
  inactivity_timeout_ms: number;
}

export const PROFILE_KEY = '/api/profile';
export const SERVICE_KEY = '/service/tmp-pdf';

/** GET /service/tmp-pdf (spec section 3 "Service-data response"). */
export interface ServiceData {
  answer: Record<string, string | boolean>;
  add_another: Record<string, number>;
  document_answer: Record<string, { file_name: string; file_size: number }>;
  tabs: Record<string, string>;
}
export const ADD_ANOTHER_KEY = '/api/add-another';
export const TABS_KEY = '/api/tabs';

/** GET /api/add-another and GET /api/tabs (spec section 3 "Other entities"). */
export type AddAnotherData = Record<string, number>;
export type TabsData = Record<string, string>;

/**
 * Loads the profile before the form pages render (the route loader). Without a session
 * cookie the visitor is anonymous and nothing is asked; a 401 has already sent the
 * browser to /login through the unauthorized handler.
 */
export async function loadProfile(): Promise<Profile | null> {
  const serviceToken = new URLSearchParams(window.location.search).get('service_token');
  if (serviceToken) {
    // a service user: the read-only view of one applicant, without a session
    const data = await apiRequest<ServiceData>(`${SERVICE_KEY}?service_token=${encodeURIComponent(serviceToken)}`);
    await mutate(SERVICE_KEY, data, { revalidate: false });
    return null;
  }
  if (!hasSessionCookie()) return null;
  try {
    const [profile, addAnother, tabs] = await Promise.all([
      apiRequest<Profile>(PROFILE_KEY),
      apiRequest<AddAnotherData>(ADD_ANOTHER_KEY),
      apiRequest<TabsData>(TABS_KEY),
    ]);
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
