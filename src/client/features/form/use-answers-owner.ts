import useSWR from 'swr';
import { useProfile } from '../../session/client-snapshot.ts';
import { ADD_ANOTHER_KEY, TABS_KEY, type AddAnotherData, type TabsData } from '../../session/profile.ts';
import { hasSessionCookie } from '../../lib/session-cookie.ts';
import { answersStore } from './answers-store.ts';

let owner: string | null | undefined;

/**
 * Fills the answers store from the profile when the applicant changes (first load, login,
 * logout). While the same applicant works, the store is the truth and is not replaced.
 * Runs during the first render of the page, before any field subscribes.
 */
export function useAnswersOwner(): void {
  const profile = useProfile();
  const logged = hasSessionCookie();
  const { data: addAnother } = useSWR<AddAnotherData>(logged ? ADD_ANOTHER_KEY : null);
  const { data: tabs } = useSWR<TabsData>(logged ? TABS_KEY : null);
  const username = profile?.username ?? null;
  if (owner === username) return;
  owner = username;
  answersStore.replace(profile?.answer ?? {}, { addAnother: addAnother ?? {}, tabs: tabs ?? {} });
}
