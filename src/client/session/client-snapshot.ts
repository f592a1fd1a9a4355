import { deriveWebStatus, type WebStatus } from '../../shared/lifecycle/web-status.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import { useProfileData, type Profile } from './api/session-api.ts';
import { startingNavigation, type NavigationFlags } from './application-session.ts';
import { serviceTokenOf } from './service-token.ts';
import { useOptionalApplicationSession } from './session-hooks.ts';
import { createStore, useStore } from './store.ts';

/** The client snapshot of spec section 3: derived from the cached profile and the application session. */
export interface ClientSnapshot {
  web_status: WebStatus;
  last_page: string | null;
  is_logged_in: boolean;
  username: string | null;
  is_service_user: boolean;
  num_logins: number;
  has_changed_page: boolean;
  first_name: string;
}

const NO_NAVIGATION = createStore<NavigationFlags>(startingNavigation());

export function isServiceUser(search: string = window.location.search): boolean {
  return serviceTokenOf(search) !== null;
}

export function useProfile(): Profile | null {
  return useProfileData(hasSessionCookie()) ?? null;
}

export function useClientSnapshot(): ClientSnapshot {
  const profile = useProfile();
  const navigation = useStore(useOptionalApplicationSession()?.navigation ?? NO_NAVIGATION);
  return {
    web_status: profile ? deriveWebStatus(profile.web_status) : null,
    last_page: profile?.last_page ?? null,
    is_logged_in: profile !== null,
    username: profile?.username ?? null,
    is_service_user: isServiceUser(),
    num_logins: Math.max(1, profile?.successful_login.length ?? 1),
    has_changed_page: navigation.hasChangedPage,
    first_name: String(profile?.answer.first_name ?? '').trim(),
  };
}
