import { useEffect } from 'react';
import frame from '../../../../schemas/text/frame.json';
import type { AnswerValue } from '../../../shared/answers/conditions.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import { optionLabelsOf } from '../../../shared/answers/option-rules.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { useToast } from '../../lib/toasts.tsx';
import { useApplicationSession } from '../../session/session-hooks.ts';

const text = frame.changed_elsewhere;
const quoted = (value: string) => `“${value}”`;
const nameOf = (key: string) => quoted(form.fields[key]?.title ?? key);
/** A list by its first item's question, without the item's number ("Honor or Award"). */
function listName(buttonId: string): string {
  const first = form.pageOrder.flatMap((id) => form.pages[id].repeaters).find((each) => each.button_id === buttonId)?.instances[0]?.[0];
  return quoted((first && form.fields[first]?.title.replace(/\s*1$/, '')) || buttonId);
}

/** What was typed, as the applicant saw it (a choice by its label, a box ticked or not). */
function shownValue(key: string, value: AnswerValue): string {
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (value === '') return text.emptied; // a clear (an answer hidden, a tab left) of an answer this page had not seen
  return quoted(optionLabelsOf(form, key).get(value) ?? value);
}

/**
 * Says what the page changed because what it showed was no longer true: answers typed here
 * that another device or tab had saved over first (with what was typed, so nothing is lost
 * unsaid: it stays until closed), what a refresh brought from elsewhere, and a list press
 * refused because the list had changed. Toasts are read out by their live region.
 */
export function useChangedElsewhere(): void {
  const session = useApplicationSession();
  const toast = useToast();
  useEffect(() => session.notices.subscribe(() => {
    const notice = session.notices.get();
    if (!notice) return;
    if (notice.kind === 'overruled') {
      const fields = notice.overruled.map(({ key }) => nameOf(key)).join(', ');
      // one answer: its value; more: each with its question
      const typed = notice.overruled.length === 1 ? shownValue(notice.overruled[0]!.key, notice.overruled[0]!.typed)
        : notice.overruled.map(({ key, typed: value }) => `${nameOf(key)} ${shownValue(key, value)}`).join(', ');
      toast({ severity: 'error', title: text.overruled_title, message: fillTemplate(text.overruled, { fields, typed }), key: `overruled-${notice.id}` });
    } else if (notice.kind === 'refreshed') {
      const names = [
        ...notice.refreshed.keys.map(nameOf),
        ...notice.refreshed.lists.map(listName),
      ];
      if (!names.length && !notice.refreshed.tabs.length) return;
      toast({ severity: 'success', title: text.refreshed_title, message: fillTemplate(text.refreshed, { fields: names.join(', ') }), key: 'refreshed' });
    } else {
      toast({ severity: 'error', title: text.list_title, message: notice.message, key: 'list-changed' });
    }
  }), [session, toast]);
}
