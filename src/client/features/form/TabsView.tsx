import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import documentsText from '../../../../schemas/documents.json';
import frame from '../../../../schemas/text/frame.json';
import { fillTemplate } from '../../../shared/text/fill-template.ts';
import { focusOnOpen } from '../../lib/overlay-focus.ts';
import { removeConversion } from '../../session/api/documents-api.ts';
import type { Block, TabsBlock } from '../../../shared/form/form-model.ts';
import { descKey } from '../../../shared/answers/key-naming.ts';
import { form } from '../../../shared/form/form-model-data.ts';
import { useApplicationSession, useExtras } from '../../session/session-hooks.ts';
import { useChooseTab } from './use-form-extras.ts';

interface Props {
  block: TabsBlock;
  loggedIn: boolean;
  serviceView: boolean;
  /** the id of the heading that names the tab list */
  labelledBy?: string;
  /** draws one block of a tab (BlockView passes itself, which also draws tabs) */
  renderBlock: (block: Block, index: number) => ReactNode;
}

const switchText = frame.tab_switch;

/** How many things the applicant entered in these blocks: answered repeated items, answered parts, attached files. */
function enteredItems(blocks: Block[], answers: Record<string, unknown>): number {
  const answered = (keys: string[]) => keys.some((key) => answers[key] !== undefined && answers[key] !== '' && answers[key] !== null);
  return blocks.reduce((count, block) => {
    if (block.type === 'repeater') return count + block.instances.filter((instance) => answered(instance.keys)).length;
    if (block.type === 'part') return count + (answered(block.keys) ? 1 : 0);
    return count + block.tabs.reduce((sum, tab) => sum + enteredItems(tab.blocks, answers), 0);
  }, 0);
}

/**
 * Alternative answers in tabs (spec section 4 "Tabs"): the choice is saved and the
 * answers of the tab left are cleared, after asking when the applicant entered any there.
 * Anonymous visitors see only the default tab.
 */
export function TabsView({ block, loggedIn, serviceView, labelledBy, renderBlock }: Props) {
  const extras = useExtras();
  const { answers: answersStore, documents: documentsStore } = useApplicationSession();
  const chooseTab = useChooseTab();
  const [blocked, setBlocked] = useState(false);
  const [asking, setAsking] = useState<{ next: string; removes: string } | null>(null);
  const chosen = loggedIn || serviceView ? extras.tabs[block.tab_id] ?? block.default_tab : block.default_tab;
  const render = (tabId: string) => block.tabs.find((tab) => tab.id === tabId)!.blocks.map(renderBlock);

  if (!loggedIn || serviceView) {
    return <div className="tab-panel-static">{render(chosen)}</div>;
  }

  /** Asks before a switch that would remove answers (WCAG 3.3.4), naming what and how many. */
  const onChoose = (next: string) => {
    if (next === chosen) return;
    const left = block.tabs.find((tab) => tab.id === chosen);
    const count = left ? enteredItems(left.blocks, answersStore.get()) : 0;
    if (!left?.removes || count === 0) {
      void onChange(next);
      return;
    }
    setAsking({ next, removes: fillTemplate(count === 1 ? left.removes.one : left.removes.other, { count: String(count) }) });
  };

  const onChange = async (next: string) => {
    if (next === chosen) return;
    const left = block.tabs.find((tab) => tab.id === chosen);
    const documents = (left?.keys ?? []).filter((key) => form.fields[key]?.type === 'document');
    // not while a file is on its way; a file on the tab being left goes first, with its conversion
    if (documentsStore.isBusy(documents)) {
      setBlocked(true);
      return;
    }
    for (const key of documents.filter((item) => documentsStore.get(item).phase === 'done')) {
      try {
        await removeConversion(key);
        documentsStore.set(key, { phase: 'idle' });
        answersStore.applyFromServer({ [key]: '' });
      } catch {
        setBlocked(true);
        return;
      }
    }
    if (!(await chooseTab(block.tab_id, next, block.default_tab, block.tabs.find((tab) => tab.id === next)?.title))) return;
    const cleared: Record<string, string> = {};
    for (const key of left?.keys ?? []) {
      cleared[key] = '';
      if (form.fields[key]?.options) cleared[descKey(key)] = '';
    }
    answersStore.change(cleared);
  };

  // the ARIA tabs pattern, drawn with Blueprint's tab classes: one stop for the list (the chosen
  // tab), the arrow keys, Home and End move along it, Enter or Space chooses (choosing clears the
  // answers of the tab left, so it never happens by merely moving)
  const tabId = (id: string) => `${block.tab_id}-tab-${id}`;
  const panelId = `${block.tab_id}-panel`;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
    const index = tabs.indexOf(event.target as HTMLElement);
    if (index < 0) return;
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: tabs.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      tabs[(moves[event.key]! + tabs.length) % tabs.length]!.focus();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onChoose(tabs[index]!.dataset.tabId!);
    }
  };

  return (
    <div className="bp6-tabs answer-tabs">
      <div className="bp6-tab-list bp6-large" role="tablist" aria-labelledby={labelledBy} onKeyDown={onKeyDown}>
        {block.tabs.map((tab) => (
          <div key={tab.id} id={tabId(tab.id)} role="tab" className="bp6-tab" data-tab-id={tab.id}
            aria-selected={tab.id === chosen} aria-controls={panelId} tabIndex={tab.id === chosen ? 0 : -1}
            onClick={() => onChoose(tab.id)}>
            {tab.title}
          </div>
        ))}
      </div>
      <div className="bp6-tab-panel tab-panel" role="tabpanel" id={panelId} aria-labelledby={tabId(chosen)}>
        {render(chosen)}
      </div>
      <Dialog isOpen={blocked} onClose={() => setBlocked(false)} title={documentsText.messages.in_progress_title} className="app-dialog app-dialog-xs"
        onOpening={focusOnOpen('.bp6-dialog-footer .bp6-button')}>
        <DialogBody><p>{documentsText.messages.in_progress_text}</p></DialogBody>
        <DialogFooter actions={<Button intent="primary" text={documentsText.messages.ok} onClick={() => setBlocked(false)} />} />
      </Dialog>
      <Dialog isOpen={asking !== null} onClose={() => setAsking(null)} role="alertdialog" className="app-dialog app-dialog-xs"
        title={fillTemplate(switchText.title, { tab: block.tabs.find((tab) => tab.id === asking?.next)?.title ?? '' })}
        aria-describedby={`${block.tab_id}-switch-text`} onOpening={focusOnOpen('.tab-switch-keep')}>
        <DialogBody><p id={`${block.tab_id}-switch-text`}>{asking?.removes} {switchText.body}</p></DialogBody>
        <DialogFooter actions={(
          <>
            <Button text={switchText.keep} onClick={() => setAsking(null)} className="tab-switch-keep" />
            <Button intent="danger" text={switchText.confirm} onClick={() => {
              const next = asking?.next;
              setAsking(null);
              if (next) void onChange(next);
            }} />
          </>
        )} />
      </Dialog>
    </div>
  );
}
