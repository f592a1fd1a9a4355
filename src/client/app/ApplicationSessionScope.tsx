import { useEffect, useState, type ReactNode } from 'react';
import { fetchPrefill } from '../features/lifecycle/api/lifecycle-api.ts';
import { hasSessionCookie } from '../lib/session-cookie.ts';
import { saveAnswers, saveAnswersAsPageCloses } from '../session/api/answers-api.ts';
import { mutate } from 'swr';
import {
  PROFILE_KEY, fetchAddAnother, fetchProfile, fetchTabs, useAddAnotherData, useServiceData, useTabsData,
} from '../session/api/session-api.ts';
import { createApplicationSession, identityKey, type SessionApi, type SessionIdentity } from '../session/application-session.ts';
import { isServiceUser, useProfile } from '../session/client-snapshot.ts';
import { ApplicationSessionContext } from '../session/session-hooks.ts';
import { takeTypedBeforeStart } from '../features/form/typed-before-start.ts';

const sessionApi: SessionApi = {
  saveAnswers, saveAnswersAsPageCloses, fetchPrefill, fetchAddAnother, fetchTabs,
  // a refreshed profile is also the header's and the status rules' (another device may have submitted)
  fetchProfile: async () => {
    const profile = await fetchProfile();
    void mutate(PROFILE_KEY, profile, { revalidate: false });
    return profile;
  },
};

/** Whose application the pages show, from what the profile gate fetched (ProfileGate.tsx). */
function useSessionIdentity(): SessionIdentity {
  const service = isServiceUser();
  const logged = hasSessionCookie() && !service;
  const profile = useProfile();
  const addAnother = useAddAnotherData(logged);
  const tabs = useTabsData(logged);
  const view = useServiceData(service);
  if (service) return { kind: 'service', view };
  if (profile) return { kind: 'applicant', profile, addAnother: addAnother ?? {}, tabs: tabs ?? {} };
  return { kind: 'anonymous', prefillToken: new URLSearchParams(window.location.search).get('token') };
}

function SessionProvider({ identity, children }: { identity: SessionIdentity; children: ReactNode }) {
  // made once per identity (the scope is keyed by it), connected after rendering
  const [session] = useState(() => createApplicationSession(identity, sessionApi, { storage: window.localStorage, locks: globalThis.navigator?.locks }));
  useEffect(() => {
    const stop = session.start();
    // what was typed into the server's drawing before the scripts came is a change like any other (typed-before-start.ts)
    const typed = takeTypedBeforeStart();
    if (session.kind !== 'service' && Object.keys(typed).length) session.answers.change(typed);
    return stop;
  }, [session]);
  return <ApplicationSessionContext.Provider value={session}>{children}</ApplicationSessionContext.Provider>;
}

/**
 * One application session per identity (applicant, service view, anonymous visitor):
 * when the identity changes (a login, a logout, an ended session) the old session is
 * disconnected and a new one is made.
 */
export function ApplicationSessionScope({ children }: { children: ReactNode }) {
  const identity = useSessionIdentity();
  return <SessionProvider key={identityKey(identity)} identity={identity}>{children}</SessionProvider>;
}
