import { useEffect } from 'react';
import useSWR from 'swr';
import { isAnswered } from '../../../shared/answers/conditions.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { hasSessionCookie } from '../../lib/session-cookie.ts';
import { answersStore } from '../../session/answers-store.ts';
import { anonymousAnswers, forgetAnonymousAnswers } from '../../session/carried-answers.ts';
import { useProfile } from '../../session/client-snapshot.ts';
import { ADD_ANOTHER_KEY, TABS_KEY, type AddAnotherData, type TabsData } from '../../session/profile.ts';
import { flush, saveQueue } from './save-queue.ts';

let owner: string | null | undefined;

/**
 * Fills the answers store when the applicant changes (first load, login, logout); while
 * the same applicant works, the store is the truth and is not replaced. At login, the
 * answers typed before signing up fill the keys still empty on the server, and answers a
 * failed save left behind are put back (and saved).
 */
export function useAnswersOwner(): void {
  const profile = useProfile();
  const logged = hasSessionCookie();
  const { data: addAnother } = useSWR<AddAnotherData>(logged ? ADD_ANOTHER_KEY : null);
  const { data: tabs } = useSWR<TabsData>(logged ? TABS_KEY : null);
  const username = profile?.username ?? null;

  if (owner !== username) {
    owner = username;
    saveQueue.setOwner(username);
    if (username) {
      answersStore.replace(profile?.answer ?? {}, { addAnother: addAnother ?? {}, tabs: tabs ?? {} });
    } else {
      answersStore.replace(anonymousAnswers(), { addAnother: {}, tabs: {} });
    }
  }

  // after the first render: changes here are saved, and must not happen during render
  useEffect(() => {
    if (!username) return;
    const saved = answersStore.get();
    const carried = Object.fromEntries(Object.entries(anonymousAnswers()).filter(([key]) => !isAnswered(saved[key]) && !key.endsWith('_desc')));
    const unsaved = saveQueue.unsaved();
    if (Object.keys(carried).length || Object.keys(unsaved).length) answersStore.change({ ...carried, ...unsaved });
    forgetAnonymousAnswers();
    // back after a logout or an ended session: what was left unsaved goes now
    if (Object.keys(saveQueue.unsaved()).length) void flush();
  }, [username]);

  // /about?token=...: answers staff prefilled for a prospect (spec "Query parameters")
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (username || !token) return;
    apiRequest<{ answer: Record<string, string> }>(`/public/tmp?token=${encodeURIComponent(token)}`).then(
      ({ answer }) => {
        const current = answersStore.get();
        const fill = Object.fromEntries(Object.entries(answer).filter(([key]) => !isAnswered(current[key])));
        if (Object.keys(fill).length) answersStore.change(fill);
      },
      () => {}, // an unknown or expired token gives an empty form
    );
  }, [username]);
}
