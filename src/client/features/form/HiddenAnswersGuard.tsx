import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import frame from '../../../../schemas/text/frame.json';
import type { Changes } from '../../../shared/answers/apply-changes.ts';
import { answersHiddenBy, repeatersHiddenBy } from '../../../shared/answers/hidden-answers.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { pluralText } from '../../../shared/text/plural.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { useApplicationSession } from '../../session/session-hooks.ts';
import { useAddAnother } from './use-form-extras.ts';

const text = frame.hidden_answers;

/**
 * An applicant's change to a part's answers. `refused` runs when the applicant keeps the
 * answers it would have hidden: the part draws its stored answers again.
 */
export type GuardedChange = (changes: Changes, refused: () => void) => void;

const HiddenAnswersContext = createContext<GuardedChange | null>(null);

/** The change function of the page's guard; none in the read-only service view. */
export function useGuardedChange(): GuardedChange | null {
  return useContext(HiddenAnswersContext);
}

/** The sections that hold these keys, by title, for the question ("Mailing Address"). */
function placesOf(keys: string[]): string {
  const titles = new Set<string>();
  for (const id of form.pageOrder) {
    for (const section of form.pages[id].sections) if (keys.some((key) => section.keys.includes(key))) titles.add(section.title);
  }
  return [...titles].join(', ');
}

/**
 * After the question: the answer that was changed (its chosen radio, else its first control)
 * takes the focus again, once the dialog is gone and the page has drawn what the choice
 * changed (a block hidden, a form redrawn), and keeps it while that settles.
 */
function focusAnswer(key: string): void {
  let frames = 0;
  let held = 0;
  const step = () => {
    if (++frames > 600) return;
    const target = document.querySelector<HTMLElement>(`input[name="${CSS.escape(key)}"]:checked`) ?? document.getElementById(key);
    if (!target || document.querySelector('.hidden-answers-dialog')) {
      requestAnimationFrame(step);
      return;
    }
    const active = document.activeElement;
    if (active !== target && (!active || active === document.body || !active.isConnected)) target.focus();
    if (++held < 10) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

interface Pending {
  changes: Changes;
  refused: () => void;
  count: number;
  places: string;
}

/**
 * WCAG 3.3.4 for conditional rules: an answer that hides other answers (the arrow keys of a
 * radio group choose as they move, "Clear answer", a select) would erase them at once. Any
 * such change, found from the schema's rules, is asked first, naming how many answers it
 * removes and where; "Keep my answers" leaves everything as it was, here and on the server.
 * The add-another groups it hides go back to one item. A choice the keyboard only passes
 * through comes here once committed (PartForm's holdWhilePassing, ADR 012), so the question
 * is asked of the choice made, not of the options on the way.
 */
export function HiddenAnswersGuard({ children }: { children: ReactNode }) {
  const { answers: answersStore } = useApplicationSession();
  const addAnother = useAddAnother();
  const [pending, setPending] = useState<Pending | null>(null);
  const [announced, setAnnounced] = useState('');
  const asking = useRef(false);

  const apply = useCallback((changes: Changes) => {
    answersStore.change(changes);
    const extras = answersStore.getExtras();
    for (const buttonId of repeatersHiddenBy(form, answersStore.get())) {
      if ((extras.addAnother[buttonId] ?? 1) > 1) void addAnother(buttonId, 1);
    }
  }, [answersStore, addAnother]);

  const change = useCallback<GuardedChange>((changes, refused) => {
    const hidden = answersHiddenBy(form, answersStore.get(), changes);
    if (hidden.length === 0) {
      answersStore.change(changes);
      return;
    }
    if (asking.current) { // a second key press while the question is on its way: the first question stands
      refused();
      return;
    }
    asking.current = true;
    setPending({ changes, refused, count: hidden.length, places: placesOf(hidden) });
  }, [answersStore]);

  const decide = (remove: boolean) => {
    if (!pending) return;
    asking.current = false;
    setPending(null);
    if (remove) {
      apply(pending.changes);
      setAnnounced(pluralText(text.done, pending.count));
    } else {
      pending.refused();
      // said after Escape too, where no button was pressed: nothing changed
      setAnnounced((before) => (before === text.kept ? `${text.kept}\u00a0` : text.kept));
    }
    focusAnswer(Object.keys(pending.changes)[0]!);
  };

  const value = useMemo(() => change, [change]);
  return (
    <HiddenAnswersContext.Provider value={value}>
      {children}
      <span className="visually-hidden" role="status">{announced}</span>
      <Dialog isOpen={pending !== null} onClose={() => decide(false)} role="alertdialog" className="app-dialog app-dialog-xs hidden-answers-dialog"
        title={text.title} aria-describedby="hidden-answers-text" shouldReturnFocusOnClose={false} isCloseButtonShown={false}
        onOpening={focusOnOpen('.hidden-answers-keep')}>
        <DialogBody>
          <p id="hidden-answers-text">
            {pending ? fillTemplate(pluralText(text.removes, pending.count), { places: pending.places }) : ''} {text.body}
          </p>
        </DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={text.keep} onClick={() => decide(false)} className="hidden-answers-keep" />
            <Button intent="danger" text={text.confirm} onClick={() => decide(true)} />
          </>
        )} />
      </Dialog>
    </HiddenAnswersContext.Provider>
  );
}
