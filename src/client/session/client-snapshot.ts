import { useSyncExternalStore } from 'react';
import { deriveWebStatus, type WebStatus } from '../../shared/lifecycle/web-status.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import { useProfileData, type Profile } from './api/session-api.ts';

/** The client snapshot of spec section 3. Most of it is derived from the cached profile. */
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

interface LocalState {
  has_changed_page: boolean;
}

let local: LocalState = { has_changed_page: false };
const listeners = new Set<() => void>();

export function setLocalState(patch: Partial<LocalState>): void {
  local = { ...local, ...patch };
  listeners.forEach((listener) => listener());
}

export function resetLocalState(): void {
  setLocalState({ has_changed_page: false });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isServiceUser(search: string = window.location.search): boolean {
  return new URLSearchParams(search).has('service_token');
}

export function useProfile(): Profile | null {
  return useProfileData(hasSessionCookie()) ?? null;
}

export function useClientSnapshot(): ClientSnapshot {
  const profile = useProfile();
  const state = useSyncExternalStore(subscribe, () => local);
  return {
    web_status: profile ? deriveWebStatus(profile.web_status) : null,
    last_page: profile?.last_page ?? null,
    is_logged_in: profile !== null,
    username: profile?.username ?? null,
    is_service_user: isServiceUser(),
    num_logins: Math.max(1, profile?.successful_login.length ?? 1),
    has_changed_page: state.has_changed_page,
    first_name: String(profile?.answer.first_name ?? '').trim(),
  };
}
