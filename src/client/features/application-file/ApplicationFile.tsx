import { Callout } from '@blueprintjs/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import fileItems from '../../../../schemas/file-items.json';
import { itemRule } from '../../../shared/file-items/checklist.ts';
import { calendarDay, changedStates, FILE_TEXTS, requirementWord, stateLine } from '../../../shared/file-items/item-words.ts';
import { activeLanguage } from '../../../shared/i18n/active-language.ts';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { useApplicationFile, type ApplicationFileData, type ApplicationFileItem } from './api/application-file-api.ts';
import { ItemActions } from './ItemActions.tsx';

export interface FileChecklistProps {
  file: Pick<ApplicationFileData, 'complete_at' | 'decision_due' | 'items'>;
  heading?: string;
  /** the applicant's intro (what completes the file); staff read the states only */
  intro?: boolean;
  /** what goes under each item (the applicant's actions) */
  actions?: (item: ApplicationFileItem) => ReactNode;
  /** the id prefix of the headings, unique on the page */
  idPrefix: string;
}

/**
 * The application file's items as a list under an h2, each item under an h3: its item's title, what it is (for the
 * applicant), whether it is required of them and its state in words, with the day it
 * changed in the partner's time zone. The state is text, its colour only follows it.
 */
export function FileChecklist({ file, heading = FILE_TEXTS.heading, intro = true, actions, idPrefix }: FileChecklistProps) {
  const language = activeLanguage.code;
  const headingId = `${idPrefix}-title`;
  return (
    <section className="application-file" aria-labelledby={headingId}>
      <h2 id={headingId} className="application-file-title">{heading}</h2>
      {file.decision_due ? (
        <Callout intent="success" icon="tick-circle" className="application-file-complete">
          {fillTemplate(FILE_TEXTS.complete, { date: calendarDay(file.decision_due, language) })}
        </Callout>
      ) : intro && <p className="application-file-intro">{fillTemplate(FILE_TEXTS.intro, { days: fileItems.decision_days })}</p>}
      <ul className="application-file-items">
        {file.items.map((item) => (
          <li key={item.id} className="application-file-item" data-item-id={item.id} data-state={item.state}>
            <h3 className="application-file-item-title">{itemRule(item.id)?.title ?? item.id}</h3>
            {intro && <p className="application-file-item-description">{itemRule(item.id)?.description}</p>}
            <p className="application-file-item-status">
              <span className="application-file-requirement" data-required={item.required}>{requirementWord(item)}</span>
              <span className={`application-file-state application-file-state-${item.state}`}>{stateLine(item, language)}</span>
            </p>
            {actions?.(item)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The applicant's application file once submitted, read from the server and read again
 * when they come back to the page; a state that changed on a refresh is said in a polite
 * live region, so a screen reader hears that the transcript arrived.
 */
export function ApplicationFile({ idPrefix }: { idPrefix: string }) {
  const { file, refetch } = useApplicationFile();
  const announcement = useChangeAnnouncement(file?.items);
  return (
    <>
      {file?.submitted && (
        <FileChecklist file={file} idPrefix={idPrefix}
          actions={(item) => <ItemActions item={item} file={file} onChanged={refetch} />} />
      )}
      <p className="visually-hidden" role="status" aria-live="polite" data-file-announcement="">{announcement}</p>
    </>
  );
}

function useChangeAnnouncement(items: ApplicationFileItem[] | undefined): string {
  const previous = useRef<ApplicationFileItem[] | undefined>(undefined);
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!items) return;
    const changes = changedStates(previous.current, items, activeLanguage.code);
    previous.current = items;
    if (changes) setSaid(changes);
  }, [items]);
  return said;
}
