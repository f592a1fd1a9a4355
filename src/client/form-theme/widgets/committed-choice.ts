import type { WidgetProps } from '@rjsf/utils';
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { contextOf } from '../form-context.ts';

/** Keys that move a closed list's choice or a radio group's as they are pressed (a list's type-ahead: any character, a space too). */
function movesTheChoice(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey) return false; // Alt+Down opens a list's own popup: a choice there is committed
  return event.key.length === 1 || ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'].includes(event.key);
}

/**
 * A choice that the keyboard passes through on its way to another (a list's arrows and
 * type-ahead, a radio group's arrows) is held when the form's owner says so
 * (`formContext.holdWhilePassing`): shown, but not the answer, until the choice is committed:
 * the control left (Tab, Shift+Tab, a click elsewhere), Enter, or Space in a radio group.
 * Leaving with Tab commits before the focus moves, so Tab goes into the questions the choice
 * shows. A choice made with the pointer, or in a list's own popup, is committed at once; a
 * held choice is also committed when the page is hidden or closed, unless it would remove
 * answers (`formContext.holdUncommitted`).
 *
 * Give `change` the control's new value, and the handlers to the control (to each radio of a
 * group); `shown` is the value to show.
 */
export function useCommittedChoice(props: WidgetProps) {
  const { name, value, onChange } = props;
  const { holdUncommitted, hidesAnswers } = contextOf(props);
  const answer = String(value ?? '');
  const [held, setHeld] = useState<string | null>(null);
  // read by the handlers of the same event, before React has drawn the new state
  const heldNow = useRef<string | null>(null);
  // between a key's press and its release: a change now is the keyboard passing through
  const passing = useRef(false);

  const hold = (next: string | null) => {
    heldNow.current = next;
    setHeld(next);
    // should the page be hidden or closed first, the choice shown is committed, unless it would
    // remove answers: that is asked about when the list is left, never decided unasked
    holdUncommitted?.(name, next === null ? null : () => {
      if (heldNow.current === null) return true;
      if (hidesAnswers?.(name, heldNow.current)) return false;
      flushSync(commit);
      return true;
    });
  };
  useEffect(() => () => holdUncommitted?.(name, null), [holdUncommitted, name]);

  const commit = () => {
    const choice = heldNow.current;
    if (choice === null) return;
    hold(null);
    if (choice !== answer) onChange(choice);
  };

  return {
    shown: held ?? value,
    change(next: string) {
      if (passing.current && contextOf(props).holdWhilePassing?.(name, next)) {
        hold(next === answer ? null : next);
        return;
      }
      hold(null);
      onChange(next);
    },
    onKeyDown(event: KeyboardEvent) {
      passing.current = movesTheChoice(event);
      if (heldNow.current === null) return;
      if (event.key === 'Enter' || (event.key === ' ' && event.target instanceof HTMLInputElement && event.target.type === 'radio')) {
        event.preventDefault(); // a list would open its popup, a form would be sent
        commit();
      } else if (event.key === 'Tab') {
        flushSync(commit); // the questions the choice shows are in place before the focus moves
      }
    },
    onKeyUp() {
      passing.current = false;
    },
    onPointerDown() {
      passing.current = false;
    },
    /** The control loses the focus: committed, unless the focus only moves to the next radio of its group. */
    onBlur(event: FocusEvent<HTMLElement>) {
      const to = event.relatedTarget;
      if (to instanceof HTMLInputElement && to.type === 'radio' && to.name === (event.currentTarget as HTMLInputElement).name) return;
      passing.current = false;
      commit();
    },
  };
}
