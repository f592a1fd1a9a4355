import { useEffect } from 'react';
import { isAnswered } from '../../../shared/answers/conditions.ts';
import { hasSessionCookie } from '../../lib/session-cookie.ts';
import { answersStore } from '../../session/answers-store.ts';
import { anonymousAnswers, forgetAnonymousAnswers, keepPrefillToken } from '../../session/carried-answers.ts';
import { useProfile } from '../../session/client-snapshot.ts';
import { documentsStore } from '../../session/documents-store.ts';
import { useAddAnotherData, useServiceData, useTabsData } from '../../session/api/session-api.ts';
import { isServiceUser } from '../../session/client-snapshot.ts';
import { flush, saveQueue } from '../../session/save-queue.ts';
import { fetchPrefill } from './api/lifecycle-api.ts';

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
  const addAnother = useAddAnotherData(logged);
  const tabs = useTabsData(logged);
  const service = isServiceUser();
  const serviceData = useServiceData(service);
  const username = profile?.username ?? null;
  const identity = service ? 'service' : username;

  // the queue forgets its owner when a session ends, even if the same applicant logs back in
  if (owner !== identity || (!service && saveQueue.owner() !== username)) {
    owner = identity;
    saveQueue.setOwner(service ? null : username);
    if (service) {
      answersStore.replace(serviceData?.answer ?? {}, { addAnother: serviceData?.add_another ?? {}, tabs: serviceData?.tabs ?? {} });
      documentsStore.load(serviceData?.document_answer ?? {});
    } else if (username) {
      answersStore.replace(profile?.answer ?? {}, { addAnother: addAnother ?? {}, tabs: tabs ?? {} });
      documentsStore.load(profile?.document_answer ?? {});
    } else {
      answersStore.replace(anonymousAnswers(), { addAnother: {}, tabs: {} });
      documentsStore.load({});
    }
  }

  // after the first render: changes here are saved, and must not happen during render
  useEffect(() => {
    if (!username || service) return;
    const saved = answersStore.get();
    const carried = Object.fromEntries(Object.entries(anonymousAnswers()).filter(([key]) => !isAnswered(saved[key]) && !key.endsWith('_desc')));
    const unsaved = saveQueue.unsaved();
    if (Object.keys(carried).length || Object.keys(unsaved).length) answersStore.change({ ...carried, ...unsaved });
    forgetAnonymousAnswers();
    // back after a logout or an ended session: what was left unsaved goes now
    if (Object.keys(saveQueue.unsaved()).length) void flush();
    // the upload flow is not part of a first visit: loaded only when a conversion is to be followed
    const conversions = profile?.document_conversions ?? {};
    if (Object.keys(conversions).length) void import('../../session/upload-document.ts').then((flow) => flow.resumeConversions(conversions));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per applicant: the profile of that moment says what was converting
  }, [username, service]);

  // /about?token=...: answers staff prefilled for a prospect (spec "Query parameters")
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (username || service || !token) return;
    fetchPrefill(token).then(
      ({ answer }) => {
        const current = answersStore.get();
        const fill = Object.fromEntries(Object.entries(answer).filter(([key]) => !isAnswered(current[key])));
        if (Object.keys(fill).length) answersStore.change(fill);
        keepPrefillToken(token);
      },
      () => {}, // an unknown or expired token gives an empty form
    );
  }, [username, service]);
}
