import type { Changes } from '../../shared/answers/apply-changes.ts';
import { isAnswered, type AnswerValue } from '../../shared/answers/conditions.ts';
import type { AddAnotherData, Profile, ServiceData, TabsData } from './api/session-api.ts';
import { createAnswersStore, type AnswersStore } from './answers-store.ts';
import { createApplicationErrors } from './application-errors.ts';
import { anonymousAnswers, forgetAnonymousAnswers, keepAnonymousAnswers, keepPrefillToken } from './carried-answers.ts';
import { createDocumentsStore, type DocumentsStore } from './documents-store.ts';
import { registerBeforeLogout } from './end-session.ts';
import { createSaveQueue, type Overruled, type SaveApi, type SaveQueue } from './save-queue.ts';
import { createRefresher, type Refreshed } from './refresh-from-server.ts';
import { createStore } from './store.ts';
import { createUncommittedAnswers } from './uncommitted-answers.ts';
import { newWriterId, openUnsavedStore } from './unsaved-answers-store.ts';

/**
 * Whose application the pages show: a logged-in applicant, staff reading one through a
 * service link, or an anonymous visitor. Each gets its own application session.
 */
export type SessionIdentity =
  | { kind: 'applicant'; profile: Profile; addAnother: AddAnotherData; tabs: TabsData }
  | { kind: 'service'; view: ServiceData | undefined }
  | { kind: 'anonymous'; prefillToken: string | null };

export const identityKey = (identity: SessionIdentity): string =>
  identity.kind === 'applicant' ? `applicant:${identity.profile.username}` : identity.kind;

/** What the session asks of the server. */
export interface SessionApi extends SaveApi {
  fetchPrefill(token: string): Promise<{ answer: Record<string, AnswerValue> }>;
  /** the reads a page refreshes what it shows with when it comes back into view */
  fetchProfile(): Promise<Profile>;
  fetchAddAnother(): Promise<AddAnotherData>;
  fetchTabs(): Promise<TabsData>;
}

/** The browser's parts the session uses, handed in (tests give their own). */
export interface SessionDevice {
  /** localStorage: answers that outlive the tab */
  storage: Storage;
  locks?: LockManager;
}

/** Where the pages stand in this session: the status rules of spec sections 2 and 4 read and set it. */
export interface NavigationFlags {
  /** the applicant moved between pages (spec section 3, has_changed_page) */
  hasChangedPage: boolean;
  /** the one return to the last page of a first load was decided */
  lastPageDecided: boolean;
  /** the page that return is heading for, until it is reached */
  lastPageTarget: string | null;
}

/** Where the pages stand before any move: a fresh session's, and the account pages' (no session). */
export const startingNavigation = (): NavigationFlags => ({ hasChangedPage: false, lastPageDecided: false, lastPageTarget: null });

/**
 * What the page says when what it showed was no longer true: answers typed here that another
 * device or tab had overruled (not saved), or what it now shows from elsewhere.
 */
export type SessionNotice =
  | { kind: 'overruled'; overruled: Overruled[]; id: number }
  | { kind: 'refreshed'; refreshed: Refreshed; id: number }
  | { kind: 'list-changed'; message: string; id: number };

const ANONYMOUS_KEEP_MS = 200;

export type ApplicationSession = ReturnType<typeof createApplicationSession>;

/**
 * One identity's application while the pages are open: its answers (an anonymous
 * visitor's kept in this browser's storage, an applicant's saved through the queue), the
 * save queue, the documents, the validation messages and where the pages stand. Made
 * without side effects, so the frame can make it while rendering; `start()` connects it
 * (saving, page-hide and leaving, logout, refreshing when the page comes back into view,
 * resumed conversions, carried and prefilled answers) and returns what disconnects it, to
 * run as an effect.
 */
export function createApplicationSession(identity: SessionIdentity, api: SessionApi, device: SessionDevice) {
  let queue: SaveQueue | null = null;
  let answers: AnswersStore;
  let carried: Record<string, AnswerValue> = {};
  let documents: DocumentsStore;
  const notices = createStore<SessionNotice | null>(null);
  const uncommitted = createUncommittedAnswers();
  let noticeId = 0;
  type NoticeOf<K> = K extends SessionNotice ? Omit<K, 'id'> : never;
  const notify = (notice: NoticeOf<SessionNotice>) => notices.set({ ...notice, id: ++noticeId } as SessionNotice);

  if (identity.kind === 'applicant') {
    const { profile } = identity;
    answers = createAnswersStore(profile.answer, { addAnother: identity.addAnother, tabs: identity.tabs });
    queue = createSaveQueue({
      api,
      writer: newWriterId(),
      seen: profile.answer_clock,
      openStore: () => openUnsavedStore({ storage: device.storage, locks: device.locks, key: profile.save_queue.key, tag: profile.save_queue.tag, writer: queue!.writer }),
      showFromServer: (values) => answers.applyFromServer(values),
      onOverruled: (overruled) => notify({ kind: 'overruled', overruled }),
    });
    // answers typed before signing up fill the keys still empty on the server (spec-decisions 4)
    const saved = answers.get();
    carried = Object.fromEntries(Object.entries(anonymousAnswers(device.storage)).filter(([key]) => !isAnswered(saved[key]) && !key.endsWith('_desc')));
    documents = createDocumentsStore(profile.document_answer, profile.document_conversions);
  } else if (identity.kind === 'service') {
    const view = identity.view;
    answers = createAnswersStore(view?.answer ?? {}, { addAnother: view?.add_another ?? {}, tabs: view?.tabs ?? {} });
    documents = createDocumentsStore(view?.document_answer ?? {});
  } else {
    answers = createAnswersStore(anonymousAnswers(device.storage), { addAnother: {}, tabs: {} });
    documents = createDocumentsStore({});
  }

  /** Shows what the server holds now (another device or tab may have changed it), leaving what this page has not saved yet as it is. */
  const refreshFrom = queue ? createRefresher(api, answers, queue) : null;
  async function refresh(): Promise<void> {
    const refreshed = await refreshFrom?.();
    if (refreshed) notify({ kind: 'refreshed', refreshed });
  }

  const session = {
    kind: identity.kind,
    username: identity.kind === 'applicant' ? identity.profile.username : null,
    answers,
    saveQueue: queue,
    documents,
    notices,
    errors: createApplicationErrors(answers),
    uncommitted,
    navigation: createStore<NavigationFlags>(startingNavigation()),

    /** Saves what is pending (an applicant's); true once it is acknowledged. */
    flush: (): Promise<boolean> => queue?.flush() ?? Promise.resolve(true),

    refresh,

    /** A list or tab changed elsewhere: the page shows what is stored, and says so. */
    listChangedElsewhere(message: string): Promise<void> {
      notify({ kind: 'list-changed', message });
      return refresh().catch(() => {});
    },

    /** Values the server wrote for the applicant (an item removed): shown, and the base of the next change. */
    applyStored(values: Record<string, AnswerValue>, clocks: Record<string, number>): void {
      queue?.noteStored(clocks);
      answers.applyFromServer(values);
    },

    start(): () => void {
      if (identity.kind === 'applicant') return startApplicant(identity);
      if (identity.kind === 'anonymous') return startAnonymous(identity.prefillToken);
      return () => {};
    },
  };

  function startApplicant({ profile }: Extract<SessionIdentity, { kind: 'applicant' }>): () => void {
    const saveQueue = queue!;
    const stopSaving = answers.subscribe(({ changed, source }) => {
      if (source === 'change') saveQueue.enqueue(changed);
    });
    if (Object.keys(carried).length) answers.change(carried);
    carried = {};
    forgetAnonymousAnswers(device.storage);
    saveQueue.resume();
    const onOnline = () => void saveQueue.flush();
    // what the page shows but has not committed goes with the last save of a page hidden or closed
    const sendAll = () => {
      uncommitted.commitAll();
      saveQueue.sendBeforeUnload();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') sendAll();
      else void refresh().catch(() => {});
    };
    const onFocus = () => void refresh().catch(() => {});
    const onPageHide = sendAll;
    // closing or leaving while anything typed is unacknowledged asks first
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      uncommitted.commitAll();
      // a choice left uncommitted would remove answers: it is asked about, never saved unasked
      if (!saveQueue.hasUnacknowledged() && !uncommitted.held.get().size) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('focus', onFocus);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('visibilitychange', onVisibility);
    const unregister = registerBeforeLogout(() => {
      uncommitted.commitAll();
      return saveQueue.flush();
    });
    // the upload flow is not part of a first visit: loaded only when a conversion is to be followed
    const conversions = profile.document_conversions;
    if (Object.keys(conversions).length) void import('./upload-document.ts').then((flow) => flow.resumeConversions(session, conversions));
    return () => {
      stopSaving();
      saveQueue.pause();
      window.removeEventListener('online', onOnline);
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('visibilitychange', onVisibility);
      unregister();
    };
  }

  function startAnonymous(prefillToken: string | null): () => void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let changedSince: Changes = {};
    const keepNow = () => {
      clearTimeout(timer);
      timer = undefined;
      keepAnonymousAnswers(changedSince, device.storage);
      changedSince = {};
    };
    const stopKeeping = answers.subscribe(({ changed, source }) => {
      if (source !== 'change') return;
      Object.assign(changedSince, changed);
      clearTimeout(timer);
      timer = setTimeout(keepNow, ANONYMOUS_KEEP_MS);
    });
    // a reload or a closed tab within the pause keeps the last keystrokes too
    const onPageHide = () => {
      uncommitted.commitAll();
      if (timer !== undefined) keepNow();
    };
    window.addEventListener('pagehide', onPageHide);
    // /about?token=...: answers staff prefilled for a prospect (spec "Query parameters")
    let stopped = false;
    if (prefillToken) {
      api.fetchPrefill(prefillToken).then(
        ({ answer }) => {
          if (stopped) return;
          const current = answers.get();
          const fill = Object.fromEntries(Object.entries(answer).filter(([key]) => !isAnswered(current[key])));
          if (Object.keys(fill).length) answers.change(fill);
          keepPrefillToken(prefillToken, device.storage);
        },
        () => {}, // an unknown or expired token gives an empty form
      );
    }
    return () => {
      stopped = true;
      stopKeeping();
      if (timer !== undefined) keepNow();
      window.removeEventListener('pagehide', onPageHide);
    };
  }

  return session;
}
