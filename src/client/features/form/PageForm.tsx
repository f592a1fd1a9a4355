import { memo, Suspense, use, useEffect, useLayoutEffect, useMemo, useRef, type ComponentProps, type ReactNode } from 'react';
import type { AnswerValue } from '../../../shared/answers/conditions.ts';
import type { PageModel } from '../../../shared/form/form-model.ts';
import type { FieldErrors } from '../../../shared/validation/field-errors.ts';
import { reportPageProblem } from './api/page-problem-api.ts';
import { forgetServerFields, takeOverSection } from './typed-before-start.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';
import { HiddenAnswersGuard } from './HiddenAnswersGuard.tsx';
import { ruleKeysOf } from './rule-keys.ts';
import { reachSection, releaseDrawnSections, sectionHeld, sectionTakenOver } from './section-reach.ts';
import { SectionView } from './SectionView.tsx';
import { useFieldAnchor } from './use-field-anchor.ts';

interface Props {
  page: PageModel;
  errors: FieldErrors;
  loggedIn: boolean;
  serviceView: boolean;
  onFieldBlur?: (key: string) => void;
}

type SectionProps = ComponentProps<typeof SectionView>;

/**
 * The section as the server drew it until the applicant reaches it (section-reach.ts), then
 * React's. What was typed into the drawing since the session started joins the answers as
 * React takes it over, also when React drew it afresh instead (typed-before-start.ts).
 */
function TakenOverWhenReached({ pageId, sectionId, children }: { pageId: string; sectionId: string; children: ReactNode }) {
  const held = sectionHeld(pageId, sectionId);
  if (held) use(held);
  const { answers, kind } = useApplicationSession();
  const typedInAfresh = useRef<Record<string, AnswerValue> | null>(null);
  useLayoutEffect(() => {
    sectionTakenOver(pageId, sectionId);
    const { typed, drawnAfresh } = takeOverSection(pageId, sectionId);
    // the server's drawing and the browser's should never differ: the server's log says so when they do
    if (drawnAfresh) reportPageProblem({ problem: 'section-drawn-afresh', page: `/${pageId}`, section: sectionId });
    if (kind === 'service' || !Object.keys(typed).length) return;
    // drawn afresh, its fields read the answers once they listen: in their effects, which run before this one's below
    if (drawnAfresh) typedInAfresh.current = typed;
    else answers.change(typed);
  }, [answers, kind, pageId, sectionId]);
  useEffect(() => {
    const typed = typedInAfresh.current;
    typedInAfresh.current = null;
    if (typed) answers.change(typed);
  }, [answers, pageId, sectionId]);
  return children;
}

/**
 * Reaches the section when something it shows changes before React has taken it over: its
 * answers or those its rules read, a document's state. Such a change must not find the
 * server's drawing (React would draw the section afresh, losing what was typed in it).
 */
function useReachedOnChange({ page, section }: SectionProps): void {
  const { answers, documents } = useApplicationSession();
  const watched = useMemo(() => new Set([...section.keys, ...ruleKeysOf(page, section.keys)]), [page, section]);
  useEffect(() => {
    const held = sectionHeld(page.id, section.id);
    if (!held) return;
    const documentStates = () => JSON.stringify(section.keys.map((key) => documents.get(key)));
    const drawnDocuments = documentStates();
    const reach = () => reachSection(page.id, section.id);
    const stopAnswers = answers.subscribe(({ changed }) => Object.keys(changed).some((key) => watched.has(key)) && reach());
    const stopDocuments = documents.subscribe(() => documentStates() !== drawnDocuments && reach());
    // reached, however: nothing left to watch on every keystroke
    const stop = () => {
      stopAnswers();
      stopDocuments();
    };
    void held.then(stop);
    return stop;
  }, [answers, documents, page, section, watched]);
}

/**
 * A section as a Suspense boundary of its own, so that a page the server drew is taken over
 * section by section, each as it is reached. Memoised: it renders again only when its props
 * change, and a boundary not yet taken over that renders again is taken over there and then.
 */
const SectionBoundary = memo(function SectionBoundary(props: SectionProps) {
  const { page, section } = props;
  useReachedOnChange(props);
  // new props for a section still drawn: reached now, so that React takes it over with this render (a held one it would draw afresh)
  const rendered = useRef(false);
  if (rendered.current) reachSection(page.id, section.id);
  useEffect(() => void (rendered.current = true), []);
  return (
    <Suspense fallback={null}>
      <TakenOverWhenReached pageId={page.id} sectionId={section.id}>
        <SectionView {...props} />
      </TakenOverWhenReached>
    </Suspense>
  );
});

/** One application page, rendered from the form model generated from schemas/. */
export function PageForm({ page, errors, loggedIn, serviceView, onFieldBlur }: Props) {
  useFieldAnchor(true);
  // a drawn page left, or this one drawn by React: nothing is held any more (a held section React drew anew would show nothing)
  useEffect(() => () => {
    releaseDrawnSections();
    forgetServerFields();
  }, [page.id]);
  const sections = (
    <div className={`page-form${serviceView ? ' page-form-service' : ''}`} data-page={page.id}>
      {page.sections.map((section) => (
        <SectionBoundary key={section.id} page={page} section={section} errors={errors} loggedIn={loggedIn} serviceView={serviceView} onFieldBlur={onFieldBlur} />
      ))}
    </div>
  );
  return serviceView ? sections : <HiddenAnswersGuard>{sections}</HiddenAnswersGuard>;
}
