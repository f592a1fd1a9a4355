import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { sampleApplicants } from '../support/fixtures/sample-applicants.ts';
import type { Answers } from '../src/shared/answers/conditions.ts';
import { form } from '../src/shared/form/form-model-data.ts';
import type { PageId, PageModel } from '../src/shared/form/form-model.ts';
import messageFile from '../src/shared/generated/page-messages.json';
import languageNames from '../src/shared/generated/language-names.json';
import { LANGUAGES, SOURCE_LANGUAGE } from '../src/shared/i18n/languages.ts';
import { fillTemplate } from '../src/shared/text/fill-template.ts';
import { FormRegistryContext } from '../src/client/features/form/form-registry-context.ts';
import { PageForm } from '../src/client/features/form/PageForm.tsx';
import { createApplicationSession, type SessionApi } from '../src/client/session/application-session.ts';
import { ApplicationSessionContext } from '../src/client/session/session-hooks.ts';
import { annotatedRegistry } from './annotated-registry.tsx';
import { LANGUAGE_URL } from './check-channel.ts';
import { useCheckProblems, type CheckProblem } from './check-problems.ts';
import { conditionalSections, tabsByFirstKey, withTabsOpen, type PageMessages } from './field-facts.ts';
import { ProblemItem } from './FieldNotes.tsx';
import { FileItemsPanel } from './FileItemsPanel.tsx';
import { PreviewContext, type PreviewState } from './preview-context.ts';
import text from './preview-text.json';

const messages = messageFile as Record<string, PageMessages>;
const samples = sampleApplicants();

/** The preview saves nothing: it has no server behind it. */
const noServer: SessionApi = {
  saveAnswers: () => new Promise(() => {}),
  saveAnswersAsPageCloses: () => {},
  fetchPrefill: () => Promise.resolve({ answer: {} }),
} as unknown as SessionApi;

/** A browser storage that forgets with the page: the preview keeps nothing. */
const memoryDevice = () => {
  const items = new Map<string, string>();
  const storage: Storage = {
    get length() { return items.size; },
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
  return { storage };
};

/** The answers the page shows: a sample applicant's, or none; they stay in this tab. */
function AnswersScope({ answers, children }: { answers: Answers; children: ReactNode }) {
  const [session] = useState(() => createApplicationSession(
    { kind: 'service', view: { answer: answers, add_another: {}, tabs: {}, document_answer: {} } as never }, noServer, memoryDevice()));
  return <ApplicationSessionContext.Provider value={session}>{children}</ApplicationSessionContext.Provider>;
}

const params = new URLSearchParams(window.location.search);

/** Which page and sample show, kept in the address so a reload after an edit keeps them. */
function useAddressState(name: string, initial: string): [string, (value: string) => void] {
  const [value, setValue] = useState(params.get(name) ?? initial);
  useEffect(() => {
    const url = new URL(window.location.href);
    if (value) url.searchParams.set(name, value);
    else url.searchParams.delete(name);
    window.history.replaceState(null, '', url);
  }, [name, value]);
  return [value, setValue];
}

function ProblemsPanel({ problems, page }: { problems: CheckProblem[] | null; page: PageModel }) {
  if (!problems) return <p className="preview-status" role="status">{text.problems_pending}</p>;
  if (!problems.length) return <p className="preview-status" role="status">{text.problems_none}</p>;
  const onPage = new Set(page.keys);
  const elsewhere = problems.filter((problem) => !onPage.has(problem.key));
  return (
    <section className="preview-problems-panel" aria-labelledby="preview-problems-title">
      <h2 id="preview-problems-title">{fillTemplate(text.problems_title, { count: problems.length })}</h2>
      {elsewhere.length > 0 && (
        <>
          <p>{text.problems_elsewhere}</p>
          <ul className="preview-problems">{elsewhere.map((problem, index) => <ProblemItem key={index} problem={problem} />)}</ul>
        </>
      )}
    </section>
  );
}

/**
 * The language of the texts the pages are drawn in, so staff see their Spanish texts and
 * rules: the server loads every module again in the one chosen, and the page reloads.
 */
function LanguageChoice() {
  const [language, setLanguage] = useState(document.documentElement.lang || SOURCE_LANGUAGE);
  const choose = async (next: string) => {
    setLanguage(next);
    await fetch(`${LANGUAGE_URL}?lang=${encodeURIComponent(next)}`);
    window.location.reload();
  };
  return (
    <label className="preview-sample">
      {text.language_label}{' '}
      <select value={language} onChange={(event) => void choose(event.target.value)}>
        {LANGUAGES.map((code) => <option key={code} value={code} lang={code}>{languageNames[code]}</option>)}
      </select>
    </label>
  );
}

/** The staff preview: one page of the application at a time, annotated, with a sample applicant's answers or every section open. */
export function PreviewApp() {
  const [pageId, setPageId] = useAddressState('page', form.pageOrder[0]!);
  const [sampleId, setSampleId] = useAddressState('sample', '');
  const problems = useCheckProblems();
  const page = form.pages[pageId as PageId] ?? form.pages[form.pageOrder[0]!];
  const sample = samples.find((item) => item.id === sampleId);
  // with no applicant every conditional section and every tab is open; with one, the page hides what it would
  const shown = useMemo(() => (sample ? page : { ...withTabsOpen(page), visibility: [] }), [page, sample]);
  const state = useMemo<PreviewState>(() => {
    const sectionsAt = new Map<string, { id: string; index: number; keys: string[] }[]>();
    for (const section of conditionalSections(page)) sectionsAt.set(section.anchor, [...(sectionsAt.get(section.anchor) ?? []), section]);
    return { page, messages: messages[page.id], problems: problems ?? [], sectionsAt, tabsAt: sample ? new Map() : tabsByFirstKey(page) };
  }, [page, problems, sample]);

  return (
    <div className="preview">
      <header className="preview-header">
        <p className="preview-title">{text.title}</p>
        <p>{text.intro}</p>
        <nav aria-label={text.pages_label}>
          <ul className="preview-pages">
            {form.pageOrder.map((id) => (
              <li key={id}>
                <button type="button" className="preview-page-button" aria-current={id === page.id ? 'page' : undefined} onClick={() => setPageId(id)}>
                  {form.pages[id].title}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageChoice />
        <label className="preview-sample">
          {text.sample_label}{' '}
          <select value={sample?.id ?? ''} onChange={(event) => setSampleId(event.target.value)}>
            <option value="">{text.sample_none}</option>
            {samples.map((item) => <option key={item.id} value={item.id}>{item.name}</option>)}
          </select>
        </label>
      </header>
      <main id="main" className="preview-main">
        <ProblemsPanel problems={problems} page={page} />
        <section className="form-page" aria-labelledby="page-title">
          <h1 id="page-title" className="page-title">{page.title}</h1>
          <PreviewContext.Provider value={state}>
            <FormRegistryContext.Provider value={annotatedRegistry}>
              <AnswersScope key={`${page.id}:${sample?.id ?? ''}`} answers={sample?.answers ?? {}}>
                <PageForm page={shown} errors={{}} loggedIn={false} serviceView={false} />
              </AnswersScope>
            </FormRegistryContext.Provider>
          </PreviewContext.Provider>
        </section>
        <FileItemsPanel />
      </main>
    </div>
  );
}
