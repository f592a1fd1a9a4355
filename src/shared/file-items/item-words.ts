/**
 * An application file item in the words of schemas/file-items.json (the language of the
 * build, or the overlay the caller passes): its title and description, whether it is
 * required of this applicant, its state and the day it changed. One module for the
 * applicant's pages, the staff view and its PDF copy, so they say the same.
 */
import fileItems from '../../../schemas/file-items.json';
import partner from '../../../schemas/partner.json';
import { fillTemplate } from '../text/fill-template.ts';
import { itemRule, type FileItemState } from './checklist.ts';

export type FileTexts = typeof fileItems.texts;
export const FILE_TEXTS: FileTexts = fileItems.texts;

/** What an item needs to be worded: the shape GET /api/application-file replies with. */
export interface WordedItem {
  id: string;
  required: boolean;
  state: FileItemState;
  changed_at: string | null;
}

/** "December 5, 2026", "5 de diciembre de 2026": an instant's day in the partner's time zone. */
export function itemDate(instant: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: partner.time_zone }).format(new Date(instant));
}

/** A calendar day (YYYY-MM-DD, already the partner's) as `language` writes it. */
export function calendarDay(day: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));
}

export function itemTitle(id: string): string {
  return itemRule(id)?.title ?? id;
}

export function stateWord(state: FileItemState, texts: FileTexts = FILE_TEXTS): string {
  return texts[`state_${state}`];
}

/** Required, Optional, or Not needed (required by the schema, but not on this applicant's answers). */
export function requirementWord(item: WordedItem, texts: FileTexts = FILE_TEXTS): string {
  if (item.required) return texts.required;
  return itemRule(item.id)?.required ? texts.not_needed : texts.optional;
}

/** "Received on December 5, 2026"; a missing item (or one with no date) by its state alone. */
export function stateLine(item: WordedItem, language: string, texts: FileTexts = FILE_TEXTS): string {
  const state = stateWord(item.state, texts);
  if (item.state === 'missing' || !item.changed_at) return state;
  return fillTemplate(texts.changed_on, { state, date: itemDate(item.changed_at, language) });
}

/**
 * What a screen reader hears when a refresh brings new states: each item whose state
 * changed, "Official test scores: Received on December 5, 2026"; '' when none did.
 */
export function changedStates(before: readonly WordedItem[] | undefined, after: readonly WordedItem[], language: string, texts: FileTexts = FILE_TEXTS): string {
  if (!before) return '';
  return after
    .filter((item) => {
      const was = before.find((old) => old.id === item.id);
      return was !== undefined && (was.state !== item.state || was.changed_at !== item.changed_at);
    })
    .map((item) => fillTemplate(texts.announce_change, { item: itemTitle(item.id), state: stateLine(item, language, texts) }))
    .join(' ');
}
